// Sector summary and sector members, both from the portal's sector-wise summary page.
import { NotFoundError, clientText } from '../../errors.ts';
import type { SectorPage } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { SectorSummaryT } from '../models/resources.ts';

/** `Automobile-Assembler`, `automobile assembler`, `AUTOMOBILE ASSEMBLER` → one key; `&` reads as `and`. */
export function sectorKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]/g, '');
}

const summaryRows = memoByDataset((page: SectorPage) =>
  page.sectors.map((s): SectorSummaryT => ({
    sector_code: s.sectorCode,
    sector_name: s.sectorName,
    advance: s.advance,
    decline: s.decline,
    unchanged: s.unchanged,
    turnover: s.turnover,
    market_cap_b: s.marketCapB,
  })),
);

const membersByKey = memoByDataset((page: SectorPage) => {
  const index = new Map<string, readonly string[]>();
  for (const m of page.members) {
    index.set(m.sectorCode, m.symbols);
    index.set(sectorKey(m.sectorName), m.symbols);
  }
  // A sector with no traded members may have a summary row but no member table.
  for (const s of page.sectors) {
    if (!index.has(s.sectorCode)) index.set(s.sectorCode, []);
    if (!index.has(sectorKey(s.sectorName)))
      index.set(sectorKey(s.sectorName), index.get(s.sectorCode) ?? []);
  }
  return index;
});

export async function sectorSummary(
  datasets: Datasets,
  ctx: RequestContext,
): Promise<Answer<SectorSummaryT[]>> {
  const cached = await datasets.sectors(ctx);
  return answerFrom(cached, summaryRows(cached.value), 'sectors');
}

export async function sectorMembers(
  datasets: Datasets,
  name: string,
  ctx: RequestContext,
): Promise<Answer<readonly string[]>> {
  const cached = await datasets.sectors(ctx);
  const trimmed = name.trim();
  const key = /^\d{1,4}$/.test(trimmed) ? trimmed.padStart(4, '0') : sectorKey(trimmed);
  const symbols = membersByKey(cached.value).get(key);
  if (!symbols) throw new NotFoundError(`sector ${clientText(name)} not found`);
  return answerFrom(cached, symbols, answerKey('sector', key));
}
