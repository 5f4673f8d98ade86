// Rankings' member series from the archive: each member's archived bars with the corporate-action
// factors the archive keeps (archive-adjusted.ts), the same adjusted closes its own adjusted
// history gives, without a portal fetch. Members the archive lacks (not backfilled, or no kept
// actions: their raw closes would read a bonus as a loss) come from `fallback` (the portal,
// within the budget). Only the rows a period can reach are read.
import { minusDays } from '../../analytics/dates.ts';
import { periodReturn } from '../../analytics/returns.ts';
import { periodTarget, type Period } from '../../analytics/periods.ts';
import type { AdjustmentRecord } from '../../archive/store.ts';
import type { Series } from '../analytics/analytics-rows.ts';
import { karachiDate } from '../../time/market-clock.ts';
import { marketAsOf } from '../answer.ts';
import type { MarketArchive } from '../archive/archive.ts';
import { adjustedCloses } from './adjusted.ts';
import type { MemberSeries, MemberSeriesSource } from '../analytics/member-series.ts';

/** Calendar days read before a period's start: the exchange's longest closures (Eid) fit in it. */
const MARGIN_DAYS = 14;
const FRESH_MS = 60_000;

/** The first day a period ending today can start on, less a margin; undefined: the whole history. */
function cutoffOf(period: Period | undefined, today: string): string | undefined {
  if (period === undefined || period === 'ALL') return undefined;
  const target = periodTarget(period, today) ?? today;
  return minusDays(target, MARGIN_DAYS);
}

type Held = { symbol: string; dates: string[]; closes: Array<number | null>; volumes: Array<number | null> };

export function archiveMemberSource(
  archive: MarketArchive,
  fallback: MemberSeriesSource,
  now: () => number,
): MemberSeriesSource {
  const seriesOf = (held: Held, record: AdjustmentRecord): Series => {
    const { bars, dates } = adjustedCloses(held.dates, held.closes, held.volumes, record);
    const at = now();
    return {
      bars,
      dates,
      adjustment: null,
      answer: {
        key: `archive-series:${held.symbol}`,
        data: null,
        asOf: marketAsOf(at),
        provenance: {
          state: 'HIT',
          fetchedAt: at,
          freshUntil: at + FRESH_MS,
          version: `${held.symbol}@${dates.at(-1) ?? ''}/${dates.length}/${record.checkedAt}`,
        },
      },
    };
  };
  return {
    async load(symbols, ctx, period) {
      const [done, records] = await Promise.all([archive.backfilled(), archive.adjustments(symbols)]);
      const held = symbols.filter((s) => done.has(s) && records.has(s));
      const cutoff = cutoffOf(period, karachiDate(now()));
      const out = new Map<string, MemberSeries>();
      const reread: string[] = [];
      for (const h of held.length > 0 ? await archive.closesAndVolumes(held, cutoff) : []) {
        const series = seriesOf(h, records.get(h.symbol)!);
        // A member that stopped trading may start its period before the cutoff: read it whole.
        if (
          cutoff !== undefined &&
          period !== undefined &&
          periodReturn(series.bars, series.dates, period).value === null
        ) {
          reread.push(h.symbol);
          continue;
        }
        out.set(h.symbol, { symbol: h.symbol, series, source: 'archive' });
      }
      if (reread.length > 0) {
        for (const h of await archive.closesAndVolumes(reread))
          out.set(h.symbol, {
            symbol: h.symbol,
            series: seriesOf(h, records.get(h.symbol)!),
            source: 'archive',
          });
      }
      const rest = symbols.filter((s) => !out.has(s));
      if (rest.length > 0) {
        for (const m of await fallback.load(rest, ctx, period)) out.set(m.symbol, { ...m, source: 'portal' });
      }
      return symbols.map((s) => out.get(s)!);
    },
  };
}
