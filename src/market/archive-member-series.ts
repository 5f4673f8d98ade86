// Rankings' member series from the archive: each member's archived bars with the corporate-action
// factors the archive keeps (archive-adjusted.ts), the same adjusted closes its own adjusted
// history gives, without a portal fetch. Members the archive lacks (not backfilled, or no kept
// actions: their raw closes would read a bonus as a loss) come from `fallback` (the portal,
// within the budget). Only the rows a period can reach are read.
import { minusDays } from '../analytics/dates.ts';
import { periodReturn } from '../analytics/returns.ts';
import { periodTarget, type Period } from '../analytics/periods.ts';
import { withClose, type Bar } from '../analytics/series.ts';
import type { DailyBar } from '../archive/store.ts';
import { karachiDate } from '../time/market-clock.ts';
import { karachiTime } from './answer.ts';
import type { MarketArchive } from './archive.ts';
import { adjustArchived } from './archive-adjusted.ts';
import type { MemberSeries, MemberSeriesSource } from './member-series.ts';

/** Calendar days read before a period's start: the exchange's longest closures (Eid) fit in it. */
const MARGIN_DAYS = 14;
const FRESH_MS = 60_000;

/** The first day a period ending today can start on, less a margin; undefined: the whole history. */
function cutoffOf(period: Period | undefined, today: string): string | undefined {
  if (period === undefined || period === 'ALL') return undefined;
  const target = periodTarget(period, today) ?? today;
  return minusDays(target, MARGIN_DAYS);
}

export function archiveMemberSource(
  archive: MarketArchive,
  fallback: MemberSeriesSource,
  now: () => number,
): MemberSeriesSource {
  const seriesOf = (
    symbol: string,
    bars: readonly DailyBar[],
    record: Parameters<typeof adjustArchived>[2],
  ) => {
    const rows = adjustArchived(symbol, bars, record, false).rows;
    const withCloses: Bar[] = withClose(rows);
    const dates = withCloses.map((b) => b.date);
    const at = now();
    const last = dates.at(-1) ?? '';
    return {
      bars: withCloses,
      dates,
      adjustment: null,
      answer: {
        key: `archive-series:${symbol}`,
        data: null,
        asOf: karachiTime(at),
        provenance: {
          state: 'HIT' as const,
          fetchedAt: at,
          freshUntil: at + FRESH_MS,
          version: `${symbol}@${last}/${dates.length}/${record?.checkedAt ?? 0}`,
        },
      },
    };
  };
  return {
    async load(symbols, ctx, period) {
      const [done, records] = await Promise.all([archive.backfilled(), archive.adjustments(symbols)]);
      const held = symbols.filter((s) => done.has(s) && records.has(s));
      const cutoff = cutoffOf(period, karachiDate(now()));
      const bars = held.length > 0 ? await archive.bars(held, cutoff) : [];
      const grouped = new Map<string, DailyBar[]>(held.map((s) => [s, []]));
      for (const b of bars) grouped.get(b.symbol)!.push(b);
      const out = new Map<string, MemberSeries>();
      const reread: string[] = [];
      for (const [symbol, rows] of grouped) {
        const series = seriesOf(symbol, rows, records.get(symbol));
        // A member that stopped trading may start its period before the cutoff: read it whole.
        if (
          cutoff !== undefined &&
          period !== undefined &&
          periodReturn(series.bars, series.dates, period).value === null
        ) {
          reread.push(symbol);
          continue;
        }
        out.set(symbol, { symbol, series, source: 'archive' });
      }
      if (reread.length > 0) {
        const whole = new Map<string, DailyBar[]>(reread.map((s) => [s, []]));
        for (const b of await archive.bars(reread)) whole.get(b.symbol)!.push(b);
        for (const [symbol, rows] of whole)
          out.set(symbol, { symbol, series: seriesOf(symbol, rows, records.get(symbol)), source: 'archive' });
      }
      const rest = symbols.filter((s) => !out.has(s));
      if (rest.length > 0) {
        for (const m of await fallback.load(rest, ctx, period)) out.set(m.symbol, { ...m, source: 'portal' });
      }
      return symbols.map((s) => out.get(s)!);
    },
  };
}
