// Every call the views make, and the shapes they expect, in one place. The endpoints the typed
// client knows go through it; the newer ones (intraday, movers, breadth, profiles, adjusted
// history, announcements, financials) are plain GETs whose field names are declared here, so a
// renamed field is fixed in this file alone. A service without one of them answers 404 "no such
// endpoint", which reaches the views as NotAvailable: they leave that part out.
// Lists several views need are shared for half a minute, so moving between pages does not repeat
// them; a failed call is never kept.
import type {
  components,
  HistoricalRow,
  IndexConstituent,
  Quote,
  ScreenerRow,
  SectorSummary,
} from 'psx-market-data-client';
import { api, getJson, requirePath, viaClient, type Fetched } from './api.ts';

export type { Fetched };
export type MarketStatus = components['schemas']['MarketStatus'];

// ---- shapes of the endpoints the typed client does not know yet ----

/** `/stocks/{s}/quote` fields added by the company-data work; all optional until then. */
export interface QuoteExtras {
  circuit_breaker_low?: number | null;
  circuit_breaker_high?: number | null;
  day_range_low?: number | null;
  day_range_high?: number | null;
  week52_low?: number | null;
  week52_high?: number | null;
  bid_price?: number | null;
  bid_volume?: number | null;
  ask_price?: number | null;
  ask_volume?: number | null;
  ytd_change_pct?: number | null;
  as_of?: string | null;
}
export type FullQuote = Quote & QuoteExtras;

/** `/stocks/{s}/intraday` and `/indices/{n}/intraday` bar rows (5m default). */
export interface IntradayBar {
  time: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

/** `/indices/{n}/historical` rows (high/low null: the portal's EOD series has none). */
export interface IndexDay {
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

/** `/market/movers?by=` rows. */
export interface Mover {
  symbol: string;
  name: string | null;
  price: number | null;
  change: number | null;
  change_pct: number | null;
  volume: number | null;
}
export type MoverKind = 'gainers' | 'losers' | 'active';

/** `/market/breadth`. */
export interface Breadth {
  advances: number;
  declines: number;
  /** Null when the screener could not be had (the untraded equities are unknown). */
  unchanged: number | null;
  total: number | null;
  total_volume: number | null;
  total_value: number | null;
}

/** `/stocks/{s}/profile`. */
export interface Profile {
  symbol: string;
  name: string | null;
  sector: string | null;
  description: string | null;
  key_people: { name: string; role: string }[];
  address: string | null;
  website: string | null;
  registrar: string | null;
  auditor: string | null;
  fiscal_year_end: string | null;
  shares_outstanding: number | null;
  free_float_shares: number | null;
  free_float_pct: number | null;
  market_cap: number | null;
}

/** `/stocks/{s}/announcements`. */
export interface Announcement {
  date: string;
  time: string | null;
  title: string;
  category: string;
  document_url: string | null;
}

/** `/stocks/{s}/financials?period=`: the period plus one number per line (names set by the service). */
export type FinancialsRow = { period: string } & Record<string, number | string | null>;

/** `/stocks/{s}/corporate-actions`. */
export interface CorporateAction {
  ex_date: string;
  kind: string;
  ratio: number | null;
  amount: number | null;
  evidence: string[];
  applied: boolean;
  note: string | null;
}

/** `/stocks/{s}/historical?adjusted=true` rows. */
export type AdjustedRow = HistoricalRow & { adjustment_factor?: number | null };

// ---- the overviews: one request for a whole view ----

export type StockOverview = components['schemas']['StockOverview'];
export type MarketOverview = components['schemas']['MarketOverview'];
export type MarketState = components['schemas']['MarketState'];
export type PartError = components['schemas']['OverviewPartError'];
/** One part of an overview: its data, its own as-of, and why it is missing when it is. */
export interface Part<T> {
  data: T | null;
  as_of: string | null;
  error: PartError | null;
}

// ---- sharing ----

// Shorter than the market view's one-minute refresh, so each refresh reads anew.
const SHARE_MS = 30_000;
const shared = new Map<string, { at: number; value: Promise<Fetched<unknown>> }>();

function share<T>(key: string, call: () => Promise<Fetched<T>>): Promise<Fetched<T>> {
  const held = shared.get(key);
  if (held && Date.now() - held.at < SHARE_MS) {
    return held.value as Promise<Fetched<T>>;
  }
  const value = call();
  shared.set(key, { at: Date.now(), value });
  value.catch(() => shared.delete(key));
  return value;
}

const seg = encodeURIComponent;

// ---- endpoints the service has ----

/** Everything a symbol's page shows, in one request (`again`: skip the page's shared copy). */
export const stockOverview = (symbol: string, again = false): Promise<Fetched<StockOverview>> => {
  const call = (): Promise<Fetched<StockOverview>> =>
    viaClient(api.GET('/stocks/{symbol}/overview', { params: { path: { symbol } } }));
  if (again) shared.delete(`overview:${symbol}`);
  return share(`overview:${symbol}`, call);
};

/** Everything the market's page shows, with one index's chart and constituents, in one request. */
export const marketOverview = (index: string, again = false): Promise<Fetched<MarketOverview>> => {
  const call = (): Promise<Fetched<MarketOverview>> =>
    viaClient(api.GET('/market/overview', { params: { query: { index, movers: 6 } } }));
  if (again) shared.delete(`market:${index}`);
  return share(`market:${index}`, call);
};

/** The newest market overview this page holds (any index), for views that need its sectors. */
export function heldMarketOverview(): Promise<Fetched<MarketOverview>> | undefined {
  let newest: { at: number; value: Promise<Fetched<unknown>> } | undefined;
  for (const [key, held] of shared) {
    if (key.startsWith('market:') && Date.now() - held.at < SHARE_MS && (!newest || held.at > newest.at))
      newest = held;
  }
  return newest?.value as Promise<Fetched<MarketOverview>> | undefined;
}

/** Many quotes in one request (at most 100). */
export const quotesOf = (list: string[]): Promise<Fetched<FullQuote[]>> =>
  viaClient(api.GET('/quotes', { params: { query: { symbols: list.join(',') } } }));

/** A company found by symbol or name (`/stocks?q=`). */
export interface StockMatch {
  symbol: string;
  name: string;
  sector: string;
}

/** Symbols and company names matching `q`, best first. */
export const searchStocks = (q: string): Promise<Fetched<StockMatch[]>> =>
  share(`search:${q.toLowerCase()}`, () =>
    getJson<StockMatch[]>('/stocks', `/stocks?q=${encodeURIComponent(q)}`),
  );

export const marketStatus = (): Promise<Fetched<MarketStatus>> => viaClient(api.GET('/market/status'));

export const indexConstituents = (name: string): Promise<Fetched<IndexConstituent[]>> =>
  share(`index:${name}`, () => viaClient(api.GET('/indices/{name}', { params: { path: { name } } })));

export const sectors = (): Promise<Fetched<SectorSummary[]>> =>
  share('sectors', () => viaClient(api.GET('/sectors')));

export const screenerRows = (): Promise<Fetched<ScreenerRow[]>> =>
  share('screener', () => viaClient(api.GET('/screener')));

export const sectorMembers = (code: string): Promise<Fetched<string[]>> =>
  viaClient(api.GET('/sectors/{name}/stocks', { params: { path: { name: code } } }));

export const history = (symbol: string): Promise<Fetched<HistoricalRow[]>> =>
  viaClient(api.GET('/stocks/{symbol}/historical', { params: { path: { symbol } } }));

// ---- endpoints other work adds (NotAvailable until the service has them) ----

export const indexHistory = (name: string): Promise<Fetched<IndexDay[]>> =>
  getJson('/indices/{name}/historical', `/indices/${seg(name)}/historical`);

export const adjustedHistory = (symbol: string): Promise<Fetched<AdjustedRow[]>> =>
  getJson('/stocks/{symbol}/historical', `/stocks/${seg(symbol)}/historical?adjusted=true`);

export type Performance = components['schemas']['Performance'];

export const stockPerformance = (symbol: string): Promise<Fetched<Performance>> =>
  getJson('/stocks/{symbol}/performance', `/stocks/${seg(symbol)}/performance`, 'low');

export const stockIndicators = (
  symbol: string,
  start: string,
): Promise<Fetched<({ date: string; close: number } & Record<string, number | string | null>)[]>> =>
  getJson(
    '/stocks/{symbol}/indicators',
    `/stocks/${seg(symbol)}/indicators?i=${encodeURIComponent('sma:20,ema:50,bbands:20:2,rsi:14,macd:12:26:9')}&start=${start}`,
    'low',
  );

/** The live stream's URL: `event: quote`, `data:` one quote object (FullQuote) per change. */
export const STREAM_PATH = '/stream/quotes';
export const quoteStreamUrl = (symbols: string[]): string =>
  `/stream/quotes?symbols=${symbols.map(seg).join(',')}`;

/** Resolves when the service has the live stream; NotAvailable otherwise. */
export const streamAvailable = (): Promise<void> => requirePath(STREAM_PATH);

// ---- derived ----

/** Sector names by the screener's numeric code (0813 → 813); empty when they could not be had. */
let names: Map<number, string> | undefined;
export async function sectorNames(): Promise<Map<number, string>> {
  if (names) return names;
  try {
    const held = await heldMarketOverview()?.catch(() => undefined);
    const rows = held?.data.sectors.data ?? (await sectors()).data;
    // Sector names do not change while the page is open: learnt once.
    names = new Map(rows.map((s) => [Number(s.sector_code), s.sector_name]));
    return names;
  } catch {
    return new Map();
  }
}

/** Sector names learnt from an overview the page already has. */
export function learnSectorNames(rows: SectorSummary[]): void {
  names ??= new Map(rows.map((s) => [Number(s.sector_code), s.sector_name]));
}

// ---- a past day's market, from the archive's closing files ----

/** A market of the exchange's closing file (`/market/daily?market=`). */
export type DailyMarket = 'equities' | 'futures' | 'index_futures' | 'debt';
export type ExMarker = 'XD' | 'XB' | 'XR' | null;

/** `/market/daily?date=` rows: MarketDailyBar (equities) and ContractDailyRow (the other markets). */
export interface DailyRow {
  symbol: string;
  date: string;
  /** Contracts only; equities take theirs from the day's universe. */
  name?: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  /** The previous close the day's file printed; null without a file row. */
  ldcp?: number | null;
  marker: ExMarker;
}

/** `/market/universe?date=` rows: every equity of the day's file. */
export interface UniverseRow {
  symbol: string;
  name: string;
  sector_code: string;
  marker: ExMarker;
  listed_today: boolean;
}

export const marketDay = (date: string, market: DailyMarket): Promise<Fetched<DailyRow[]>> =>
  getJson(
    '/market/daily',
    `/market/daily?date=${seg(date)}${market === 'equities' ? '' : `&market=${market}`}`,
  );

export const marketUniverse = (date: string): Promise<Fetched<UniverseRow[]>> =>
  getJson('/market/universe', `/market/universe?date=${seg(date)}`);

export type ArchiveStatus = components['schemas']['ArchiveStatus'];

/** The archive's contents; asked once a page load (the days it holds move by one a day). */
let archiveKnown: Promise<Fetched<ArchiveStatus>> | undefined;
export function archiveStatusOnce(): Promise<Fetched<ArchiveStatus>> {
  archiveKnown ??= viaClient<ArchiveStatus>(api.GET('/archive/status'));
  archiveKnown.catch(() => (archiveKnown = undefined));
  return archiveKnown;
}
