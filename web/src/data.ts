// The calls the views make. Lists several views need (sectors, the screener) are shared for a
// minute, so moving between pages does not repeat them; a failed call is never kept.
import type { HistoricalRow, IndexLevel, Quote, ScreenerRow, SectorSummary } from 'psx-market-data-client';
import { api, unwrap } from './api.ts';

const SHARE_MS = 60_000;
const shared = new Map<string, { at: number; value: Promise<unknown> }>();

function share<T>(key: string, call: () => Promise<T>): Promise<T> {
  const held = shared.get(key);
  if (held && Date.now() - held.at < SHARE_MS) return held.value as Promise<T>;
  const value = call();
  shared.set(key, { at: Date.now(), value });
  value.catch(() => shared.delete(key));
  return value;
}

export const indexLevels = async (): Promise<IndexLevel[]> => (await unwrap(api.GET('/indices'))).data;

export const sectors = (): Promise<SectorSummary[]> =>
  share('sectors', async () => (await unwrap(api.GET('/sectors'))).data);

export const screenerRows = (): Promise<ScreenerRow[]> =>
  share('screener', async () => (await unwrap(api.GET('/screener'))).data);

// Without `q` the list is plain symbols (its type also covers the `?q=` search's objects).
export const symbols = (): Promise<string[]> =>
  share('stocks', async () =>
    (await unwrap(api.GET('/stocks'))).data.filter((s): s is string => typeof s === 'string'),
  );

export const sectorMembers = async (code: string): Promise<string[]> =>
  (await unwrap(api.GET('/sectors/{name}/stocks', { params: { path: { name: code } } }))).data;

export const quote = async (symbol: string): Promise<Quote> =>
  (await unwrap(api.GET('/stocks/{symbol}/quote', { params: { path: { symbol } } }))).data;

export const history = async (symbol: string): Promise<HistoricalRow[]> =>
  (await unwrap(api.GET('/stocks/{symbol}/historical', { params: { path: { symbol } } }))).data;

/** Sector names by the screener's numeric code (0813 → 813); empty when /sectors failed. */
export async function sectorNames(): Promise<Map<number, string>> {
  try {
    return new Map((await sectors()).map((s) => [Number(s.sector_code), s.sector_name]));
  } catch {
    return new Map();
  }
}
