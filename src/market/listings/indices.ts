// Index constituents and index levels.
import { NotFoundError, clientText } from '../../errors.ts';
import type { IndexConstituentsPage, IndexLevelsPage } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, millions, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { IndexConstituentT, IndexLevelT } from '../models/resources.ts';

/** The portal's index codes. Only these are ever requested from the portal. */
export const INDEX_CODES = [
  'KSE100',
  'KSE100PR',
  'ALLSHR',
  'KSE30',
  'KMI30',
  'BKTI',
  'OGTI',
  'KMIALLSHR',
  'PSXDIV20',
  'UPP9',
  'NITPGI',
  'NBPPGI',
  'MZNPI',
  'JSMFI',
  'ACI',
  'JSGBKTI',
  'HBLTTI',
  'MII30',
] as const;

// The spec spells two indices out ("kmiallshare"); accept those spellings as well.
const ALIASES: Record<string, string> = { ALLSHARE: 'ALLSHR', KMIALLSHARE: 'KMIALLSHR' };
const KNOWN = new Set<string>(INDEX_CODES);

/** `kse100`, `KSE-100`, `kse 100` → `KSE100`; undefined for an index the portal does not have. */
export function resolveIndexCode(name: string): string | undefined {
  const compact = name.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const code = ALIASES[compact] ?? compact;
  return KNOWN.has(code) ? code : undefined;
}

function requireIndexCode(name: string): string {
  const code = resolveIndexCode(name);
  if (!code) throw new NotFoundError(`index ${clientText(name)} not found`);
  return code;
}

const constituentRows = memoByDataset((page: IndexConstituentsPage) =>
  page.rows.map((r): IndexConstituentT => {
    const row: IndexConstituentT = {
      symbol: r.symbol,
      name: r.name,
      current_index: r.current,
      idx_weight: r.idxWeight,
      idx_point: r.idxPoint,
      market_cap_m: millions(r.marketCap),
      ldcp: r.ldcp,
      change: r.change,
      change_pct: r.changePct,
      volume: r.volume,
    };
    // Each index's table carries one size column or the other; only that one is reported.
    if (page.sizeColumn === 'freefloat' || r.freeFloat !== undefined) row.freefloat_m = millions(r.freeFloat);
    if (page.sizeColumn === 'shares' || r.shares !== undefined) row.shares_m = millions(r.shares);
    return row;
  }),
);

export async function constituents(
  datasets: Datasets,
  name: string,
  ctx: RequestContext,
): Promise<Answer<IndexConstituentT[]>> {
  const code = requireIndexCode(name);
  const cached = await datasets.indexConstituents(code, ctx);
  return answerFrom(cached, constituentRows(cached.value), answerKey('index', code));
}

export async function constituentSymbols(
  datasets: Datasets,
  name: string,
  ctx: RequestContext,
): Promise<Answer<string[]>> {
  const code = requireIndexCode(name);
  const cached = await datasets.indexConstituents(code, ctx);
  return answerFrom(
    cached,
    cached.value.rows.map((r) => r.symbol),
    answerKey('stocks', { index: code }),
  );
}

const levelRows = memoByDataset((page: IndexLevelsPage) =>
  page.rows.map((r): IndexLevelT => ({
    index: r.index,
    current: r.current,
    high: r.high,
    low: r.low,
    change: r.change,
    change_pct: r.changePct,
  })),
);

export async function levels(datasets: Datasets, ctx: RequestContext): Promise<Answer<IndexLevelT[]>> {
  const cached = await datasets.indexLevels(ctx);
  return answerFrom(cached, levelRows(cached.value), 'indices', cached.value.asOf);
}

// The spec names kse100, kse30 and kmiallshare; ALLSHR reads better as allshare alongside them.
const SUMMARY_NAMES: Record<string, string> = { KMIALLSHR: 'kmiallshare', ALLSHR: 'allshare' };

const summaryOf = memoByDataset((page: IndexLevelsPage) => {
  const summary: Record<string, number> = {};
  for (const r of page.rows) {
    if (r.current !== null) summary[SUMMARY_NAMES[r.index] ?? r.index.toLowerCase()] = r.current;
  }
  return summary;
});

export async function marketSummary(
  datasets: Datasets,
  ctx: RequestContext,
): Promise<Answer<Record<string, number>>> {
  const cached = await datasets.indexLevels(ctx);
  return answerFrom(cached, summaryOf(cached.value), 'summary', cached.value.asOf);
}
