// One accessor per portal dataset: each is a cache read whose miss fetches the
// portal page and parses it. Market services build answers from these; nothing else touches the
// exchange client.
import type { Logger } from 'pino';
import { karachiDate } from '../time/market-clock.ts';
import type { Cached, HistorySeries } from '../cache/types.ts';
import type { DatasetCache } from '../cache/dataset-cache.ts';
import type { FreshnessKind, FreshnessPolicy } from '../cache/freshness.ts';
import type { ExchangeClient, PortalRequest } from '../exchange/client.ts';
import {
  parseCompany,
  parseDailyFileBody,
  parseEod,
  parseHistory,
  parseIndexConstituents,
  parseIndexSeries,
  parseIntraday,
  parseIndexLevels,
  parseMarketWatch,
  parsePayouts,
  parseReports,
  parseScreener,
  parseSectorSummary,
  parseSymbols,
} from '../exchange/parsers/index.ts';
import type {
  CompanyPage,
  CompanySection,
  DailyFile,
  EodRow,
  HistoryRow,
  IndexConstituentsPage,
  IndexLevelsPage,
  IndexSeriesRow,
  IntradaySeries,
  MarketWatchRow,
  PayoutRow,
  PortalSymbol,
  ReportRow,
  ScreenerRow,
  SectorPage,
} from '../exchange/types.ts';
import { CompanyPrefetch, PREFETCH_CONTEXT } from './company-prefetch.ts';
import type { RequestContext } from './context.ts';

/** Decides whether a portal fetch may happen now on behalf of a client; throws when it may not. */
export interface FetchBudget {
  /** Resolves to a release callback for when the admitted fetch of a `page` has finished. */
  admit(ctx: RequestContext, page: PortalRequest['kind']): Promise<() => void>;
}

export interface DatasetsOptions {
  cache: DatasetCache;
  client: ExchangeClient;
  freshness: FreshnessPolicy;
  budget?: FetchBudget;
  logger?: Logger;
  /** The service's clock (epoch ms). */
  now: () => number;
  /** A company page section that could not be read (counted as a metric). */
  onSectionMissing?: (section: CompanySection) => void;
  /** Each company payouts page read (cached or fetched): the archive keeps its rows. */
  onPayouts?: (symbol: string, rows: readonly PayoutRow[]) => Promise<void>;
}

export class Datasets {
  /** The service's clock (epoch ms). */
  readonly now: () => number;
  /** The quote's background fetches of company pages (src/market/quotes/quote-extras.ts). */
  readonly companyPrefetch: CompanyPrefetch;

  constructor(private readonly opts: DatasetsOptions) {
    this.now = opts.now;
    this.companyPrefetch = new CompanyPrefetch((symbol) => this.company(symbol, PREFETCH_CONTEXT), opts.now);
  }

  symbols(ctx: RequestContext): Promise<Cached<PortalSymbol[]>> {
    return this.read(
      'symbols',
      'symbols',
      { kind: 'symbols', method: 'GET', path: '/symbols' },
      parseSymbols,
      ctx,
    );
  }

  screener(ctx: RequestContext): Promise<Cached<ScreenerRow[]>> {
    return this.read(
      'screener',
      'intraday',
      { kind: 'screener', method: 'GET', path: '/screener' },
      parseScreener,
      ctx,
    );
  }

  marketWatch(ctx: RequestContext): Promise<Cached<MarketWatchRow[]>> {
    const req: PortalRequest = { kind: 'market-watch', method: 'GET', path: '/market-watch' };
    return this.read('market-watch', 'intraday', req, parseMarketWatch, ctx);
  }

  /**
   * The market watch fetched now, fresh or not (the live-quote poller, src/stream/): the answer
   * also refreshes the cached page every quote is built from.
   */
  reloadMarketWatch(ctx: RequestContext): Promise<Cached<MarketWatchRow[]>> {
    const policy = this.opts.freshness;
    const req: PortalRequest = { kind: 'market-watch', method: 'GET', path: '/market-watch' };
    return this.opts.cache.reload<MarketWatchRow[]>({
      key: 'market-watch',
      load: (previous) => this.fetch(req, ctx, parseMarketWatch, previous?.value),
      freshUntil: (_value, fetchedAt) => policy.freshUntil('intraday', fetchedAt),
      sizeOf: (value) => JSON.stringify(value).length * 2,
    });
  }

  /** Another replica refreshed the market watch: the next read takes its copy from the shared tier. */
  forgetMarketWatch(): void {
    this.opts.cache.forget('market-watch');
  }

  /** `code` must be a known index code (see indices.ts); the portal is never asked for arbitrary paths. */
  indexConstituents(code: string, ctx: RequestContext): Promise<Cached<IndexConstituentsPage>> {
    const req: PortalRequest = { kind: 'index-constituents', method: 'GET', path: `/indices/${code}` };
    return this.read(`index:${code}`, 'intraday', req, parseIndexConstituents, ctx);
  }

  indexLevels(ctx: RequestContext): Promise<Cached<IndexLevelsPage>> {
    const req: PortalRequest = { kind: 'index-levels', method: 'GET', path: '/indices' };
    return this.read('index-levels', 'intraday', req, parseIndexLevels, ctx);
  }

  sectors(ctx: RequestContext): Promise<Cached<SectorPage>> {
    const req: PortalRequest = { kind: 'sector-summary', method: 'GET', path: '/sector-summary/sectorwise' };
    return this.read('sectors', 'intraday', req, parseSectorSummary, ctx);
  }

  /**
   * The symbol's whole daily history, newest first as the portal gives it. Past rows never change,
   * so a refresh within a day of the last full fetch asks only for the current month and merges it
   * in; at most once a day the whole series is refetched, because the portal does restate past rows.
   */
  history(symbol: string, ctx: RequestContext): Promise<Cached<HistorySeries>> {
    const { cache, freshness, logger } = this.opts;
    const now = this.opts.now;
    const key = `history:${symbol}`;
    const fresh = cache.fresh<HistorySeries>(key);
    if (fresh !== undefined) return fresh;
    return cache.get<HistorySeries>({
      key,
      load: async (previous) => {
        const fetchedAt = now();
        const month = karachiDate(fetchedAt).slice(0, 7);
        const held = previous?.value;
        if (held && held.rows.length > 0 && fetchedAt - held.fullFetchedAt < FULL_HISTORY_REFETCH_MS) {
          // Only when the stored series reaches into this month does one month of rows close the gap.
          if (held.rows[0]!.date.slice(0, 7) === month) {
            const [year, mm] = month.split('-') as [string, string];
            const form = { symbol, month: String(Number(mm)), year };
            const recent = await this.fetch(
              { kind: 'history', method: 'POST', path: '/historical', form },
              ctx,
              parseHistory,
            );
            return { rows: mergeHistory(held.rows, recent), fullFetchedAt: held.fullFetchedAt };
          }
        }
        const form = { symbol };
        const rows = await this.fetch(
          { kind: 'history', method: 'POST', path: '/historical', form },
          ctx,
          parseHistory,
        );
        if (held) {
          const changed = countChangedRows(held.rows, rows);
          if (changed > 0) logger?.info({ symbol, changed }, 'full history refetch restated rows');
        }
        return { rows, fullFetchedAt: fetchedAt };
      },
      freshUntil: (series, fetchedAt) => freshness.freshUntil('history', fetchedAt, series.rows[0]?.date),
      // Measured (bench/README.md): ~180 B a portal row plus ~200 B for its derived API row.
      sizeOf: (series) => series.rows.length * 400 + 200,
    });
  }

  /** Whether a fresh copy of the symbol's history is held (a read of it would fetch nothing). */
  holdsFreshHistory(symbol: string): boolean {
    return this.opts.cache.holdsFresh(`history:${symbol}`);
  }

  /**
   * A symbol's whole daily history fetched now and not cached, newest first: the archiver keeps
   * it in the archive instead, so a backfill does not push every client's data out of the cache.
   */
  fetchHistory(symbol: string, ctx: RequestContext): Promise<HistoryRow[]> {
    const req: PortalRequest = { kind: 'history', method: 'POST', path: '/historical', form: { symbol } };
    return this.fetch(req, ctx, parseHistory);
  }

  reports(symbol: string, ctx: RequestContext): Promise<Cached<ReportRow[]>> {
    const req: PortalRequest = {
      kind: 'reports',
      method: 'GET',
      path: `/company/reports/${encodeURIComponent(symbol)}`,
    };
    return this.read(`reports:${symbol}`, 'reports', req, (html) => parseReports(html, symbol), ctx);
  }

  /**
   * The symbol's company page (`GET /company/{SYM}`), or null where the portal answers its
   * `Not Found` page. One fetch per symbol per freshness window serves the profile, financials,
   * announcements and the quote's extras. Intraday freshness: the page carries the live quote.
   * Sections the parser could not read are logged and counted once per fetch.
   */
  company(symbol: string, ctx: RequestContext): Promise<Cached<CompanyPage | null>> {
    const req: PortalRequest = {
      kind: 'company',
      method: 'GET',
      path: `/company/${encodeURIComponent(symbol)}`,
    };
    return this.read(
      `company:${symbol}`,
      'intraday',
      req,
      (html) => this.parseCompanyPage(symbol, html),
      ctx,
    );
  }

  /** The company page held for `symbol` while it is fresh, without fetching; undefined otherwise. */
  async freshCompany(symbol: string): Promise<Cached<CompanyPage | null> | undefined> {
    return this.opts.cache.fresh<CompanyPage | null>(`company:${symbol}`);
  }

  private parseCompanyPage(symbol: string, html: string): CompanyPage | null {
    const page = parseCompany(html);
    for (const { section, reason } of page?.missing ?? []) {
      this.opts.logger?.warn({ symbol, section, reason }, 'company page section could not be read');
      this.opts.onSectionMissing?.(section);
    }
    return page;
  }

  /**
   * The portal's adjusted daily series (about five years, newest first). It changes at most once a
   * trading day, like the raw history, so it shares the history's freshness; it is small enough to
   * refetch whole.
   */
  eod(symbol: string, ctx: RequestContext): Promise<Cached<EodRow[]>> {
    const { cache, freshness } = this.opts;
    const key = `eod:${symbol}`;
    const held = cache.fresh<EodRow[]>(key);
    if (held !== undefined) return held;
    const req: PortalRequest = {
      kind: 'eod',
      method: 'GET',
      path: `/timeseries/eod/${encodeURIComponent(symbol)}`,
    };
    return cache.get<EodRow[]>({
      key,
      load: (previous) => this.fetch(req, ctx, parseEod, previous?.value),
      freshUntil: (rows, fetchedAt) => freshness.freshUntil('history', fetchedAt, rows[0]?.date),
      sizeOf: (rows) => rows.length * 120 + 200,
    });
  }

  /**
   * Today's trades of a symbol or an index code (`/timeseries/int`), oldest first.
   * `code` is a normalised symbol or a known index code.
   */
  intraday(code: string, ctx: RequestContext): Promise<Cached<IntradaySeries>> {
    const req: PortalRequest = {
      kind: 'intraday',
      method: 'GET',
      path: `/timeseries/int/${encodeURIComponent(code)}`,
    };
    return this.read(`intraday:${code}`, 'intraday', req, parseIntraday, ctx);
  }

  /**
   * An index's daily levels (`/timeseries/eod/{INDEX}`), oldest first. Fresh like a history: the
   * series grows by one row a trading day. `code` must be a known index code.
   */
  indexSeries(code: string, ctx: RequestContext): Promise<Cached<IndexSeriesRow[]>> {
    const { cache, freshness } = this.opts;
    const key = `index-series:${code}`;
    const held = cache.fresh<IndexSeriesRow[]>(key);
    if (held !== undefined) return held;
    const req: PortalRequest = { kind: 'index-series', method: 'GET', path: `/timeseries/eod/${code}` };
    return cache.get<IndexSeriesRow[]>({
      key,
      load: (previous) => this.fetch(req, ctx, parseIndexSeries, previous?.value),
      freshUntil: (rows, fetchedAt) =>
        freshness.freshUntil('history', fetchedAt, rows[rows.length - 1]?.date),
      sizeOf: (rows) => rows.length * 120 + 200,
    });
  }

  /** The adjusted series fetched now and not cached (the archiver keeps its analysis instead). */
  fetchEod(symbol: string, ctx: RequestContext): Promise<EodRow[]> {
    const req: PortalRequest = {
      kind: 'eod',
      method: 'GET',
      path: `/timeseries/eod/${encodeURIComponent(symbol)}`,
    };
    return this.fetch(req, ctx, parseEod);
  }

  /** The payouts page fetched now and not cached (the archiver keeps its analysis instead). */
  fetchPayouts(symbol: string, ctx: RequestContext): Promise<PayoutRow[]> {
    const req: PortalRequest = {
      kind: 'payouts',
      method: 'POST',
      path: '/company/payouts',
      form: { symbol },
    };
    return this.fetch(req, ctx, parsePayouts);
  }

  /** The company's payouts (dividends, bonus, rights) of about the last 17–18 months, newest first. */
  payouts(symbol: string, ctx: RequestContext): Promise<Cached<PayoutRow[]>> {
    const req: PortalRequest = {
      kind: 'payouts',
      method: 'POST',
      path: '/company/payouts',
      form: { symbol },
    };
    // Announcements are not tied to trading hours: the filings' freshness.
    const page = this.read(`payouts:${symbol}`, 'reports', req, parsePayouts, ctx);
    const keep = this.opts.onPayouts;
    return keep === undefined ? page : page.then(async (p) => (await keep(symbol, p.value), p));
  }

  /**
   * The exchange's closing file of `date`, fetched now within the client's budget and not cached
   * (the archiver keeps it); null when the portal has none (its 404 page: no session that day).
   */
  async fetchDailyFile(date: string, ctx: RequestContext): Promise<DailyFile | null> {
    const { client, budget } = this.opts;
    const release = budget ? await budget.admit(ctx, 'daily-file') : undefined;
    try {
      const route = ctx.proxy ? await ctx.proxy.resolveRoute() : client.direct;
      const got = await client.fetchDailyFile(date, route);
      return got.found ? parseDailyFileBody(got.body) : null;
    } finally {
      release?.();
    }
  }

  /**
   * A page of the market-wide feeds (feed-datasets.ts), read as every dataset here is: cached under
   * `key`, fetched within the client's budget on a miss, a parse failure never replacing good data.
   */
  readPage<T>(
    key: string,
    freshness: FreshnessKind,
    req: PortalRequest,
    parse: (text: string) => T,
    ctx: RequestContext,
  ): Promise<Cached<T>> {
    return this.read(key, freshness, req, parse, ctx);
  }

  private read<T>(
    key: string,
    freshness: FreshnessKind,
    req: PortalRequest,
    parse: (text: string) => T,
    ctx: RequestContext,
  ): Promise<Cached<T>> {
    const { cache } = this.opts;
    const fresh = cache.fresh<T>(key);
    if (fresh !== undefined) return fresh;
    const policy = this.opts.freshness;
    return cache.get<T>({
      key,
      load: (previous) => this.fetch(req, ctx, parse, previous?.value),
      freshUntil: (_value, fetchedAt) => policy.freshUntil(freshness, fetchedAt),
      sizeOf: (value) => JSON.stringify(value).length * 2,
    });
  }

  /**
   * One portal fetch on behalf of a client: its budget first, then its route (direct or its proxy).
   * `previous`: the copy held, which the client prefers to a page that has lost a column (stale).
   */
  private async fetch<T>(
    req: PortalRequest,
    ctx: RequestContext,
    parse: (text: string) => T,
    previous?: unknown,
  ): Promise<T> {
    const { client, budget } = this.opts;
    const release = budget ? await budget.admit(ctx, req.kind) : undefined;
    try {
      const route = ctx.proxy ? await ctx.proxy.resolveRoute() : client.direct;
      return (await client.fetchParsed(req, parse, route, previous)).value;
    } finally {
      release?.();
    }
  }
}

const FULL_HISTORY_REFETCH_MS = 24 * 60 * 60 * 1000;

/** Recent rows replace held rows of the same date; the result stays newest first. */
export function mergeHistory(held: readonly HistoryRow[], recent: HistoryRow[]): readonly HistoryRow[] {
  if (recent.length === 0) return held;
  const recentDates = new Set(recent.map((r) => r.date));
  const merged = [...recent, ...held.filter((r) => !recentDates.has(r.date))];
  return merged.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

/** Rows added, removed or restated between two versions of a series. */
export function countChangedRows(before: readonly HistoryRow[], after: readonly HistoryRow[]): number {
  const key = (r: HistoryRow) => `${r.date}|${r.open}|${r.high}|${r.low}|${r.close}|${r.volume}`;
  const old = new Set(before.map(key));
  const now = new Set(after.map(key));
  let changed = 0;
  for (const k of now) if (!old.has(k)) changed++;
  for (const k of old) if (!now.has(k)) changed++;
  return changed;
}
