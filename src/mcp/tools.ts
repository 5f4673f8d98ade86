// Every MCP tool, one entry each: its name and description, its arguments (with bounds), its
// result's schema, the market-service call behind it (the same the REST route makes) and its text.
// A new endpoint's tool is one more entry here.
import { Type } from 'typebox';
import { BadRequestError } from '../errors.ts';
import { adjustedHistorical } from '../market/adjusted-history.ts';
import { breadth, MOVER_KINDS, movers } from '../market/board.ts';
import {
  ANNOUNCEMENT_CATEGORIES,
  announcements,
  FINANCIAL_PERIODS,
  financials,
  profile,
} from '../market/company.ts';
import { corporateActions } from '../market/corporate-actions.ts';
import { fundamentals } from '../market/fundamentals.ts';
import { historical } from '../market/history.ts';
import { indexHistorical } from '../market/index-history.ts';
import { constituents, levels, marketSummary } from '../market/indices.ts';
import { indexIntraday, INTERVALS, stockIntraday } from '../market/intraday.ts';
import { marketStatus } from '../market/market-status.ts';
import {
  AdjustedHistoricalRow,
  AdjustmentMeta,
  Announcement,
  CorporateAction,
  CorporateActionsCoverage,
  FinancialsRow,
  FundamentalsRow,
  HistoricalRow,
  IndexConstituent,
  IndexLevel,
  MarketStatus,
  MarketSummary,
  Profile,
  Quote,
  ScreenerRow,
  SectorSummary,
  StockMatch,
} from '../market/models.ts';
import {
  Breadth,
  IndexHistoricalRow,
  IndexTick,
  IntradayBar,
  Mover,
  StockTick,
} from '../market/models-live.ts';
import { MAX_BATCH_SYMBOLS, quote, quotes } from '../market/quotes.ts';
import { SCREEN_FIELDS, screen, type ScreenField } from '../market/screen.ts';
import { SEARCH_LIMIT, searchStocks } from '../market/search.ts';
import { sectorMembers, sectorSummary } from '../market/sectors.ts';
import { listStocks } from '../market/stocks.ts';
import { args, fields, list, one, page, pageText, paging, single, tool, type Tool } from './tool-kit.ts';

const Symbol = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$',
  description: 'a listed symbol, case-insensitive, e.g. ENGRO, HBL, UBLP-ETF',
});
const IndexCode = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'an index code, case- and punctuation-insensitive: KSE100, KSE30, KMI30, ALLSHR, KMIALLSHR, …',
});
const Day = (what: string) =>
  Type.Optional(Type.String({ format: 'date', description: `${what}, inclusive, YYYY-MM-DD` }));
const Order = Type.Optional(Type.Enum(['asc', 'desc'], { description: 'asc (default): oldest first' }));
const Interval = Type.Optional(
  Type.Enum([...INTERVALS], {
    description:
      'tick: every print; 1m…60m: OHLCV bars on the Karachi clock (only intervals with prints). Default 5m',
  }),
);
const HISTORY_DEFAULT = 60;
const HISTORY_MAX = 5000;
const HistoryLimit = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: HISTORY_MAX,
    description: `only the newest N rows of the range; default ${HISTORY_DEFAULT}, at most ${HISTORY_MAX}`,
  }),
);
const SymbolList = Type.Array(Symbol, {
  minItems: 1,
  maxItems: MAX_BATCH_SYMBOLS,
  description: `symbols, at most ${MAX_BATCH_SYMBOLS} (duplicates count once)`,
});
const Days = Type.Union([HistoricalRow, AdjustedHistoricalRow]);

const QUOTE_COLUMNS = ['symbol', 'price', 'change', 'change_pct', 'volume', 'pe_ratio', 'market_cap'];
const HISTORY_COLUMNS = ['date', 'open', 'high', 'low', 'close', 'volume', 'is_anomaly'];
const SCREEN_COLUMNS = [
  'symbol',
  'sector',
  'price',
  'change_pct',
  'pe_ratio',
  'dividend_yield',
  'market_cap',
  'change_1y_pct',
];

/** A bound of the screen on one field, e.g. `min_pe_ratio`. */
function bounds(): Record<string, ReturnType<typeof Type.Optional>> {
  const out: Record<string, ReturnType<typeof Type.Optional>> = {};
  const words: Record<ScreenField, string> = {
    price: 'price, PKR',
    pe_ratio: 'P/E (rows without a P/E fail any P/E bound)',
    dividend_yield: 'dividend yield, percent',
    market_cap: 'market cap, PKR',
    change_pct: "today's change, percent",
    change_1y_pct: '1-year change, percent',
    volume_avg_30d: '30-day average volume, shares',
  };
  for (const field of SCREEN_FIELDS) {
    out[`min_${field}`] = Type.Optional(Type.Number({ description: `lowest ${words[field]}, inclusive` }));
    out[`max_${field}`] = Type.Optional(Type.Number({ description: `highest ${words[field]}, inclusive` }));
  }
  return out;
}

function title(result: { as_of: string | null }, what: string): string {
  return `${what} (as of ${result.as_of ?? 'n/a'})`;
}

export const TOOLS: readonly Tool[] = [
  tool({
    name: 'search_stocks',
    title: 'Search symbols and companies',
    description: `Find listed symbols by part of a symbol or company name (case-insensitive), best matches first (exact symbol, symbol prefix, name prefix, name words, substrings), at most ${SEARCH_LIMIT}. Use it to turn a company name into a symbol.`,
    input: args({
      query: Type.String({ minLength: 1, maxLength: 50, description: 'part of a symbol or company name' }),
    }),
    output: list(StockMatch),
    run: async (a, t) => page(await searchStocks(t.datasets, a.query, t.ctx)),
    render: (r) => pageText('Matches', r, ['symbol', 'name', 'sector']),
  }),
  tool({
    name: 'list_symbols',
    title: 'Listed symbols',
    description:
      "Every symbol the exchange lists (equities, ETFs, debt), or with index only that index's constituents. Paged.",
    input: args({ index: Type.Optional(IndexCode), ...paging(200, 1000) }),
    output: list(Type.String()),
    run: async (a, t) => page(await listStocks(t.datasets, t.ctx, a.index), a.offset, a.limit ?? 200),
    render: (r) =>
      `Symbols: ${(r.data as string[]).join(', ')}\n${r.count} of ${r.total} (as of ${r.as_of})${
        r.next_offset === null ? '' : `; more with offset=${r.next_offset}`
      }`,
  }),
  tool({
    name: 'get_quote',
    title: "A symbol's quote",
    description:
      "Latest price, day's change and range, volume, valuation (market cap, P/E, dividend yield, free float), 1-year change and, when held, circuit breakers, 52-week range and best bid/ask. Prices in PKR, percentages as numbers.",
    input: args({ symbol: Symbol }),
    output: single(Quote),
    run: async (a, t) => one(await quote(t.datasets, a.symbol, t.ctx)),
    render: (r) => {
      const q = r.data as Record<string, unknown>;
      return `${title(r, `${String(q.symbol)} ${String(q.name ?? '')}`)}\n${fields(q)}`;
    },
  }),
  tool({
    name: 'get_quotes',
    title: 'Quotes of many symbols',
    description: `Quotes of up to ${MAX_BATCH_SYMBOLS} symbols in one call, in the order asked; symbols the exchange does not list are named in not_found instead of failing the call.`,
    input: args({ symbols: SymbolList }),
    output: list(Quote, {
      not_found: Type.Array(Type.String(), { description: 'symbols the exchange does not list' }),
    }),
    run: async (a, t) => page(await quotes(t.datasets, a.symbols, t.ctx)),
    render: (r) => {
      const missing = r.not_found as string[];
      const tail = missing.length > 0 ? `\nNot found: ${missing.join(', ')}` : '';
      return `${pageText('Quotes', r, QUOTE_COLUMNS)}${tail}`;
    },
  }),
  tool({
    name: 'get_history',
    title: 'Daily price history',
    description: `One row per trading day (open, high, low, close in PKR, volume, anomaly flags), oldest first unless order=desc: the newest ${HISTORY_DEFAULT} rows of [start, end] by default. adjusted=true adjusts prices for the capital changes (bonus, right, split) the exchange records and the raw prices confirm (adjustment says how far it reaches); dividends=true (with adjusted) also for cash dividends. To go further back, set end before the first date shown.`,
    input: args({
      symbol: Symbol,
      start: Day('first day'),
      end: Day('last day'),
      order: Order,
      limit: HistoryLimit,
      adjusted: Type.Optional(Type.Boolean({ description: 'adjust for capital changes; default false' })),
      dividends: Type.Optional(
        Type.Boolean({ description: 'with adjusted=true, also for cash dividends; default false' }),
      ),
    }),
    output: list(Days, { adjustment: Type.Optional(AdjustmentMeta) }),
    run: async (a, t) => {
      const range = { start: a.start, end: a.end, order: a.order, limit: a.limit ?? HISTORY_DEFAULT };
      if (a.dividends === true && a.adjusted !== true) {
        throw new BadRequestError('dividends=true adjusts prices: use it with adjusted=true');
      }
      const answer = a.adjusted
        ? await adjustedHistorical(t.datasets, a.symbol, { ...range, dividends: a.dividends === true }, t.ctx)
        : await historical(t.datasets, a.symbol, range, t.ctx);
      return page(answer);
    },
    render: (r) => {
      const adj = r.adjustment as { status: string } | undefined;
      const note = adj === undefined ? '' : ` — adjusted (${adj.status})`;
      const cols = adj === undefined ? HISTORY_COLUMNS : [...HISTORY_COLUMNS, 'adjustment_factor'];
      return pageText(`Daily rows${note}`, r, cols);
    },
  }),
  tool({
    name: 'get_intraday',
    title: "Today's prints or bars of a symbol",
    description:
      "Today's trades: interval=tick gives every print {time, price, volume}; 1m…60m give OHLCV bars on the Karachi clock. Empty before the day's first print.",
    input: args({ symbol: Symbol, interval: Interval, ...paging(100, 1000) }),
    output: list(Type.Union([StockTick, IntradayBar])),
    run: async (a, t) =>
      page(await stockIntraday(t.datasets, a.symbol, a.interval ?? '5m', t.ctx), a.offset, a.limit ?? 100),
    render: (r) => pageText('Intraday', r, Object.keys((r.data as object[])[0] ?? { time: 0 })),
  }),
  tool({
    name: 'get_corporate_actions',
    title: 'Corporate actions',
    description:
      'Bonus, split and right issues (confirmed by the raw prices) and cash dividends the exchange records, oldest first, with their evidence and whether adjusted history applies them; coverage says how far back the record reaches.',
    input: args({ symbol: Symbol }),
    output: list(CorporateAction, { coverage: CorporateActionsCoverage }),
    run: async (a, t) => page(await corporateActions(t.datasets, a.symbol, t.ctx)),
    render: (r) =>
      pageText('Corporate actions', r, ['ex_date', 'kind', 'ratio', 'amount', 'applied', 'note']),
  }),
  tool({
    name: 'get_profile',
    title: 'Company profile',
    description:
      'Company name, sector, business description, key people, address, website, registrar, auditor, fiscal year end, shares outstanding, free float and market cap (PKR).',
    input: args({ symbol: Symbol }),
    output: single(Profile),
    run: async (a, t) => one(await profile(t.datasets, a.symbol, t.ctx)),
    render: (r) => {
      const p = r.data as Record<string, unknown>;
      const people = (p.key_people as { name: string; role: string | null }[])
        .map((k) => `${k.name}${k.role ? ` (${k.role})` : ''}`)
        .join('; ');
      const { key_people: _, ...rest } = p;
      return `${title(r, `${String(p.symbol)} profile`)}\n${fields(rest)}\nkey_people: ${people || '—'}`;
    },
  }),
  tool({
    name: 'get_financials',
    title: 'Annual or quarterly financials',
    description:
      "The company page's financial statements, one row per period, newest first: amounts in PKR, eps in PKR a share; annual rows also carry margins, EPS growth and PEG.",
    input: args({
      symbol: Symbol,
      period: Type.Optional(
        Type.Enum([...FINANCIAL_PERIODS], { description: 'annual (default) or quarterly' }),
      ),
    }),
    output: list(FinancialsRow),
    run: async (a, t) => page(await financials(t.datasets, a.symbol, a.period ?? 'annual', t.ctx)),
    render: (r) => {
      const rows = r.data as Record<string, unknown>[];
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      return pageText('Financials', r, columns.length > 0 ? columns : ['period']);
    },
  }),
  tool({
    name: 'get_announcements',
    title: 'Company announcements',
    description:
      'Announcements from the company page (financial results, board meetings, others), newest first, with their PDF links. The page keeps the latest few of each category.',
    input: args({
      symbol: Symbol,
      category: Type.Optional(
        Type.Enum([...ANNOUNCEMENT_CATEGORIES], { description: 'only this category; default all' }),
      ),
      ...paging(20, 200),
    }),
    output: list(Announcement),
    run: async (a, t) =>
      page(await announcements(t.datasets, a.symbol, a.category, t.ctx), a.offset, a.limit ?? 20),
    render: (r) => pageText('Announcements', r, ['date', 'category', 'title', 'document_url']),
  }),
  tool({
    name: 'get_reports',
    title: 'Financial reports filed',
    description:
      'The annual and quarterly reports the company filed with the exchange (year, type, period ended, posting date, document link), as the exchange lists them.',
    input: args({ symbol: Symbol, ...paging(30, 500) }),
    output: list(FundamentalsRow),
    run: async (a, t) => page(await fundamentals(t.datasets, a.symbol, t.ctx), a.offset, a.limit ?? 30),
    render: (r) => pageText('Reports', r, ['year', 'type', 'period_ended', 'posting_date', 'document']),
  }),
  tool({
    name: 'list_indices',
    title: 'Index levels',
    description: "Every index's current level, day's high and low, change and change percent.",
    input: args({}),
    output: list(IndexLevel),
    run: async (_a, t) => page(await levels(t.datasets, t.ctx)),
    render: (r) => pageText('Indices', r, ['index', 'current', 'high', 'low', 'change', 'change_pct']),
  }),
  tool({
    name: 'get_index_constituents',
    title: 'Index constituents',
    description:
      "An index's constituents with their weight, index points contributed, market cap (millions), price, change and volume. Paged.",
    input: args({ index: IndexCode, ...paging(50, 500) }),
    output: list(IndexConstituent),
    run: async (a, t) => page(await constituents(t.datasets, a.index, t.ctx), a.offset, a.limit ?? 50),
    render: (r) =>
      pageText('Constituents', r, [
        'symbol',
        'idx_weight',
        'idx_point',
        'current_index',
        'change_pct',
        'volume',
      ]),
  }),
  tool({
    name: 'get_index_history',
    title: 'Daily index levels',
    description: `One row per trading day (open, close, volume) of an index, oldest first unless order=desc: the newest ${HISTORY_DEFAULT} rows of [start, end] by default (about five years are held).`,
    input: args({
      index: IndexCode,
      start: Day('first day'),
      end: Day('last day'),
      order: Order,
      limit: HistoryLimit,
    }),
    output: list(IndexHistoricalRow),
    run: async (a, t) =>
      page(
        await indexHistorical(
          t.datasets,
          a.index,
          { start: a.start, end: a.end, order: a.order, limit: a.limit ?? HISTORY_DEFAULT },
          t.ctx,
        ),
      ),
    render: (r) => pageText('Index levels', r, ['date', 'open', 'close', 'volume']),
  }),
  tool({
    name: 'get_index_intraday',
    title: "An index's ticks or bars today",
    description: "Today's index ticks (about every 15 s) with interval=tick, or OHLC bars (1m…60m).",
    input: args({ index: IndexCode, interval: Interval, ...paging(100, 2000) }),
    output: list(Type.Union([IndexTick, IntradayBar])),
    run: async (a, t) =>
      page(await indexIntraday(t.datasets, a.index, a.interval ?? '5m', t.ctx), a.offset, a.limit ?? 100),
    render: (r) => pageText('Index intraday', r, Object.keys((r.data as object[])[0] ?? { time: 0 })),
  }),
  tool({
    name: 'list_sectors',
    title: 'Sector summary',
    description:
      'Every sector: code, name, advances, declines, unchanged, turnover and market cap (billions).',
    input: args({}),
    output: list(SectorSummary),
    run: async (_a, t) => page(await sectorSummary(t.datasets, t.ctx)),
    render: (r) =>
      pageText('Sectors', r, [
        'sector_code',
        'sector_name',
        'advance',
        'decline',
        'unchanged',
        'turnover',
        'market_cap_b',
      ]),
  }),
  tool({
    name: 'get_sector_stocks',
    title: "A sector's symbols",
    description: 'The member symbols of a sector, by code (0801) or name (automobile assembler).',
    input: args({
      sector: Type.String({ minLength: 1, maxLength: 100, description: 'a sector code or name' }),
    }),
    output: list(Type.String()),
    run: async (a, t) => page(await sectorMembers(t.datasets, a.sector, t.ctx)),
    render: (r) => `Members (${r.total}, as of ${r.as_of}): ${(r.data as string[]).join(', ')}`,
  }),
  tool({
    name: 'screen_stocks',
    title: 'Stock screener',
    description:
      "The screener: every equity with sector, price, today's change, P/E, dividend yield, market cap, free float, 30-day volume and 1-year change, filtered by sector, index and min/max bounds (inclusive; a row without the value fails a bound on it) and sorted. Paged.",
    input: args({
      sector: Type.Optional(
        Type.String({ minLength: 1, maxLength: 100, description: 'a sector code (0801) or name' }),
      ),
      index: Type.Optional(IndexCode),
      ...bounds(),
      sort: Type.Optional(
        Type.Enum(['symbol', ...SCREEN_FIELDS], { description: 'sort field; default symbol' }),
      ),
      order: Type.Optional(
        Type.Enum(['asc', 'desc'], { description: 'default desc for a numeric sort, asc for symbol' }),
      ),
      ...paging(25, 500),
    }),
    output: list(
      Type.Object({
        ...ScreenerRow.properties,
        change_pct: Type.Union([Type.Number(), Type.Null()], {
          description: "today's change, percent (null when not on today's market watch)",
        }),
      }),
    ),
    run: async (a, t) => {
      const raw = a as Record<string, unknown>;
      const min: Partial<Record<ScreenField, number>> = {};
      const max: Partial<Record<ScreenField, number>> = {};
      for (const field of SCREEN_FIELDS) {
        if (typeof raw[`min_${field}`] === 'number') min[field] = raw[`min_${field}`] as number;
        if (typeof raw[`max_${field}`] === 'number') max[field] = raw[`max_${field}`] as number;
      }
      const answer = await screen(
        t.datasets,
        { sector: a.sector, index: a.index, min, max, sort: a.sort, order: a.order },
        t.ctx,
      );
      return page(answer, a.offset, a.limit ?? 25);
    },
    render: (r) => pageText('Screen', r, SCREEN_COLUMNS),
  }),
  tool({
    name: 'get_market_summary',
    title: 'Index levels at a glance',
    description:
      'The current level of every index by lowercase code (kse100, kse30, kmiallshare, allshare, …).',
    input: args({}),
    output: single(MarketSummary),
    run: async (_a, t) => one(await marketSummary(t.datasets, t.ctx)),
    render: (r) => `${title(r, 'Market')}\n${fields(r.data as object)}`,
  }),
  tool({
    name: 'get_market_status',
    title: 'Market open or closed',
    description:
      "Whether the exchange is pre-open, open, in Friday's break or closed, by the service's Karachi market clock, with the next open and close.",
    input: args({}),
    output: single(MarketStatus),
    run: async (_a, t) => {
      const status = marketStatus(t.marketClock.now(), {
        followMarketClock: t.marketClock.followMarketClock,
      });
      return { as_of: status.now, data: status };
    },
    render: (r) => fields(r.data as object),
  }),
  tool({
    name: 'get_movers',
    title: 'Top gainers, losers or most active',
    description:
      "Today's top gainers or losers by change percent, or most active by volume, from the market watch.",
    input: args({
      by: Type.Optional(Type.Enum([...MOVER_KINDS], { description: 'gainers (default), losers or active' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'default 10' })),
    }),
    output: list(Mover),
    run: async (a, t) => page(await movers(t.datasets, a.by ?? 'gainers', a.limit ?? 10, t.ctx)),
    render: (r) => pageText('Movers', r, ['symbol', 'price', 'change', 'change_pct', 'volume']),
  }),
  tool({
    name: 'get_breadth',
    title: 'Market breadth',
    description:
      "Advances, declines and unchanged over today's market watch, with total volume and value traded.",
    input: args({}),
    output: single(Breadth),
    run: async (_a, t) => one(await breadth(t.datasets, t.ctx)),
    render: (r) => `${title(r, 'Breadth')}\n${fields(r.data as object)}`,
  }),
];

/** Tools by name. */
export const TOOL_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));
