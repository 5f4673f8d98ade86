// The exchange's trading days as the archive knows them (days with bars), for the settlement
// dates (src/time/settlement.ts): within the span the archive covers, a weekday without bars is a
// holiday; beyond it, and inside a gap longer than any holiday run (the archiver was off), the
// calendar does not know and the settlement counts weekdays.
import { addDays, parseIsoDay } from '../../time/karachi.ts';
import type { TradingCalendar } from '../../time/settlement.ts';
import type { MarketArchive } from './archive.ts';

/** Weekdays in a row without bars still read as holidays (Eid ul-Adha with a weekend: up to 5). */
const LONGEST_HOLIDAY_RUN = 5;
/** Days read around the dates asked, so the days counted back from a book closure are covered. */
const MARGIN_DAYS = 21;

const weekdaysBetween = (a: number, b: number): number => {
  let n = 0;
  for (let d = a + 1; d < b; d++) {
    const w = (((d + 4) % 7) + 7) % 7;
    if (w !== 0 && w !== 6) n++;
  }
  return n;
};

export class ArchiveCalendar implements TradingCalendar {
  private readonly days: Set<string>;
  private readonly first: number;
  private readonly last: number;
  /** Gaps too long to be holidays: [after, before) day numbers the calendar does not know. */
  private readonly unknown: Array<[number, number]> = [];

  /** `days`: the archive's trading days, oldest first. */
  constructor(days: readonly string[]) {
    this.days = new Set(days);
    const numbers = days.map(parseIsoDay);
    this.first = numbers[0] ?? Number.POSITIVE_INFINITY;
    this.last = numbers.at(-1) ?? Number.NEGATIVE_INFINITY;
    for (let i = 1; i < numbers.length; i++) {
      const [a, b] = [numbers[i - 1]!, numbers[i]!];
      if (weekdaysBetween(a, b) > LONGEST_HOLIDAY_RUN) this.unknown.push([a, b]);
    }
  }

  /** The first and last archived days: the span the calendar answers for. */
  get span(): { from: string; to: string } | null {
    if (this.days.size === 0) return null;
    const sorted = [...this.days].sort();
    return { from: sorted[0]!, to: sorted.at(-1)! };
  }

  isTradingDay(date: string): boolean | undefined {
    const day = parseIsoDay(date);
    if (!(day >= this.first && day <= this.last)) return undefined;
    if (this.days.has(date)) return true;
    if (this.unknown.some(([a, b]) => day > a && day < b)) return undefined;
    return false;
  }

  /** The archive's calendar around [from, to]; null when the archive cannot be read now. */
  static async around(archive: MarketArchive, from: string, to: string): Promise<ArchiveCalendar | null> {
    if (!archive.available) return null;
    try {
      return new ArchiveCalendar(
        await archive.tradingDays(addDays(from, -MARGIN_DAYS), addDays(to, MARGIN_DAYS)),
      );
    } catch {
      return null;
    }
  }
}
