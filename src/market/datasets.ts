// One accessor per portal dataset (upstream.md §2): each is a cache read whose miss fetches the
// portal page and parses it. Market services build answers from these; nothing else touches the
// exchange client.
import type { Cached } from '../cache/types.ts';
import type { DatasetCache } from '../cache/dataset-cache.ts';
import type { FreshnessKind, FreshnessPolicy } from '../cache/freshness.ts';
import type { ExchangeClient, PortalRequest } from '../exchange/client.ts';
import {
  parseHistory,
  parseIndexConstituents,
  parseIndexLevels,
  parseMarketWatch,
  parseReports,
  parseScreener,
  parseSectorSummary,
  parseSymbols,
} from '../exchange/parsers/index.ts';
import type {
  HistoryRow,
  IndexConstituentsPage,
  IndexLevelsPage,
  MarketWatchRow,
  PortalSymbol,
  ReportRow,
  ScreenerRow,
  SectorPage,
} from '../exchange/types.ts';
import type { RequestContext } from './context.ts';

/** Decides whether a portal fetch may happen now on behalf of a client; throws when it may not. */
export interface FetchBudget {
  take(ctx: RequestContext): Promise<void>;
}

export interface DatasetsOptions {
  cache: DatasetCache;
  client: ExchangeClient;
  freshness: FreshnessPolicy;
  budget?: FetchBudget;
}

export class Datasets {
  constructor(private readonly opts: DatasetsOptions) {}

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

  /** The symbol's whole daily history, newest first as the portal gives it. */
  history(symbol: string, ctx: RequestContext): Promise<Cached<HistoryRow[]>> {
    const req: PortalRequest = { kind: 'history', method: 'POST', path: '/historical', form: { symbol } };
    return this.read(`history:${symbol}`, 'history', req, parseHistory, ctx, (rows) => rows[0]?.date);
  }

  reports(symbol: string, ctx: RequestContext): Promise<Cached<ReportRow[]>> {
    const req: PortalRequest = {
      kind: 'reports',
      method: 'GET',
      path: `/company/reports/${encodeURIComponent(symbol)}`,
    };
    return this.read(`reports:${symbol}`, 'reports', req, (html) => parseReports(html, symbol), ctx);
  }

  private read<T>(
    key: string,
    freshness: FreshnessKind,
    req: PortalRequest,
    parse: (text: string) => T,
    ctx: RequestContext,
    newestRowDate?: (value: T) => string | undefined,
  ): Promise<Cached<T>> {
    const { cache, client, budget } = this.opts;
    const policy = this.opts.freshness;
    return cache.get<T>({
      key,
      load: async () => {
        await budget?.take(ctx);
        const route = ctx.proxy ? await ctx.proxy.resolveRoute() : client.direct;
        return parse(await client.fetchText(req, route));
      },
      freshUntil: (value, fetchedAt) => policy.freshUntil(freshness, fetchedAt, newestRowDate?.(value)),
      sizeOf: (value) => JSON.stringify(value).length * 2,
    });
  }
}
