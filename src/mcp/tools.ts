// Every MCP tool, one entry each: its name and description, its arguments (with bounds), its
// result's schema, the market-service call behind it (the same the REST route makes) and its text.
// A new endpoint's tool is one more entry here.
import { Type } from 'typebox';
import { PERIODS, type Period } from '../analytics/periods.ts';
import { ACCEPTED, MAX_INDICATORS } from '../analytics/indicator-spec.ts';
import { BadRequestError, clientText, NotFoundError } from '../errors.ts';
import { adjustedHistorical, parseAdjustedFlags } from '../market/corporate-actions/adjusted-history.ts';
import {
  archiveStatus,
  historicalPanel,
  marketDaily,
  pastIntraday,
  tradingDays,
  universeAnswer,
} from '../market/whole-market/answers.ts';
import { universe } from '../market/archive/files.ts';
import { UniverseRow } from '../market/models/files.ts';
import { board } from '../market/feeds/boards.ts';
import { checkRange, dateRange } from '../market/feeds/date-range.ts';
import { debtInstruments, debtQuote } from '../market/feeds/debt.ts';
import { stockIndicators } from '../market/analytics/indicators.ts';
import { DEFAULT_ANNOUNCEMENTS_LIMIT, marketAnnouncements } from '../market/feeds/market-announcements.ts';
import {
  DEFAULT_OVERVIEW_INDEX,
  DEFAULT_OVERVIEW_MOVERS,
  MAX_OVERVIEW_MOVERS,
  marketOverview,
} from '../market/overview/market-overview.ts';
import { marketPayouts } from '../market/feeds/market-payouts.ts';
import { meetings } from '../market/feeds/meetings.ts';
import {
  AdjustedDailyBar,
  ArchiveAdjustmentMeta,
  ArchiveStatus,
  DailyBar,
  TradingDay,
} from '../market/models/archive.ts';
import {
  IndicatorRow,
  MemberReturn,
  Performance,
  PERIOD_DESCRIPTION,
  SectorReturn,
} from '../market/models/analytics.ts';
import {
  BOARD_NAMES,
  BoardQuote,
  DebtInstrument,
  DebtQuote,
  MarketAnnouncement,
  MarketPayout,
  Meeting,
  PayoutsFromArchive,
  PayoutsTradingDays,
} from '../market/models/feeds.ts';
import { MarketOverview, StockOverview } from '../market/models/overview.ts';
import {
  checkEnd,
  DEFAULT_BENCHMARK,
  indexPerformance,
  stockPerformance,
} from '../market/analytics/performance.ts';
import { marketPerformance, sectorPerformance } from '../market/analytics/rankings.ts';
import { stockOverview } from '../market/overview/stock-overview.ts';
import { addDays } from '../time/karachi.ts';
import { karachiDate } from '../time/market-clock.ts';
import { breadth, MOVER_KINDS, movers } from '../market/overview/movers-breadth.ts';
import {
  ANNOUNCEMENT_CATEGORIES,
  announcements,
  FINANCIAL_PERIODS,
  financials,
  profile,
} from '../market/company/company.ts';
import { corporateActions } from '../market/corporate-actions/corporate-actions.ts';
import { fundamentals } from '../market/company/fundamentals.ts';
import { historical } from '../market/history/history.ts';
import { indexHistorical } from '../market/history/index-history.ts';
import { constituents, levels, marketSummary, resolveIndexCode } from '../market/listings/indices.ts';
import { indexIntraday, INTERVALS, stockIntraday } from '../market/history/intraday.ts';
import { marketStatus } from '../market/quotes/market-status.ts';
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
} from '../market/models/resources.ts';
import {
  Breadth,
  IndexHistoricalRow,
  IndexTick,
  IntradayBar,
  Mover,
  StockTick,
} from '../market/models/intraday.ts';
import { MAX_BATCH_SYMBOLS, quote, quotes } from '../market/quotes/quotes.ts';
import { SCREEN_FIELDS, screen, type ScreenField } from '../market/quotes/screen.ts';
import { SEARCH_LIMIT, searchStocks } from '../market/listings/search.ts';
import { sectorMembers, sectorSummary } from '../market/listings/sectors.ts';
import { listStocks } from '../market/listings/stocks.ts';
import {
  args,
  fields,
  inline,
  list,
  one,
  page,
  pageText,
  paging,
  series,
  seriesPage,
  seriesText,
  single,
  table,
  tool,
  type Structured,
  type Tool,
  type ToolContext,
} from './tool-kit.ts';
import {
  AnnouncementParameters,
  CalendarParameters,
  PayoutsCoverage,
  PayoutsParameters,
} from '../http/routes/feed-parameters.ts';

/** `meta.missing` of an answer joining pages (src/market/partial.ts): the parts left out, and why. */
const MissingParts = Type.Array(Type.Object({ part: Type.String(), reason: Type.String() }), {
  description: 'present only when a secondary portal page could not be had: the parts left out, and why',
});

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
/** `end` of the performance and ranking tools: the analysis as of a past day (checkEnd). */
const AsOfEnd = Day(
  'the analysis as of that day (Karachi): the daily rows on or before it, the periods ending at the last; default the last row',
);
/** `end`, checked against today in Karachi. */
const endOf = (end: string | undefined, t: { marketClock: { now: () => number } }): string | undefined => {
  if (end !== undefined) checkEnd(end, karachiDate(t.marketClock.now()));
  return end;
};
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
    description: `rows per page, at most ${HISTORY_MAX}; default ${HISTORY_DEFAULT}`,
  }),
);
const HistoryOffset = Type.Optional(
  Type.Integer({
    minimum: 0,
    description:
      'index of the first row of the page in the whole list, in the order asked (prev_offset and next_offset give the neighbouring pages); default: the newest rows',
  }),
);
/** How a series tool pages, for its description. */
const SERIES_PAGING = `total is the number of rows in the whole of [start, end]; one call gives a page of limit rows (default ${HISTORY_DEFAULT}), the newest by default; offset (from prev_offset or next_offset) reaches every other row.`;
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

const Adjusted = Type.Optional(
  Type.Boolean({
    description:
      'true (default): closes adjusted for the capital changes the exchange records and the raw prices confirm, so a bonus or split is not a loss; false: raw prices as traded',
  }),
);
const PeriodArg = Type.Optional(
  Type.Enum([...PERIODS], { description: `the period (default 1M). ${PERIOD_DESCRIPTION}` }),
);
/** The announcement search's arguments: the route's query parameters, `q` named `query`. */
const { q, cursor, ...announcementFilters } = AnnouncementParameters;
const DebtCode = { ...Symbol, description: 'a security code as list_debt gives it, e.g. BAFLTFC8' };
const PERFORMANCE_COLUMNS = ['period', 'start_date', 'end_date', 'return_pct'];
const RANK_COLUMNS = ['rank', 'symbol', 'return_pct', 'start_date', 'end_date', 'volume', 'reason'];
const BAR_COLUMNS = ['symbol', 'date', 'open', 'high', 'low', 'close', 'volume'];

const ArchiveAdjusted = Type.Optional(
  Type.Boolean({
    description:
      'true: prices × adjustment_factor from the corporate-action factors the archive keeps (as get_history with adjusted=true); false (default): raw prices as traded',
  }),
);
const ArchiveDividends = Type.Optional(
  Type.Boolean({ description: 'with adjusted=true, also for the cash dividends kept; default false' }),
);
const IntradayDate = Type.Optional(
  Type.String({
    format: 'date',
    description:
      "a past day, YYYY-MM-DD: what the archive kept of it (not_found for a day it did not record); absent or today: today's from the exchange",
  }),
);

/** A past date of an intraday tool: the archive's day, or undefined for today's series. */
function pastDay(date: string | undefined, t: ToolContext, name: string): string | undefined {
  if (date === undefined || date >= karachiDate(t.marketClock.now())) return undefined;
  if (t.archive === undefined) {
    throw new NotFoundError(`${name} reads past days from the archive, which this service does not keep`);
  }
  return date;
}

function adjustedNote(r: Structured): string {
  const adj = r.adjustment as { status?: string } | undefined;
  return adj === undefined ? ' (raw prices)' : ' (adjusted)';
}

function barColumns(r: Structured): string[] {
  return r.adjustment === undefined ? BAR_COLUMNS : [...BAR_COLUMNS, 'adjustment_factor'];
}

/**
 * The cost warning of a tool that reads many symbols' histories: a cold call can spend the
 * client's whole portal budget (EXCHANGE_FETCH_LIMIT_PER_IP a minute), after which its other
 * tools wait for the budget too.
 */
const MANY_FETCHES = (what: string): string =>
  `Cost: a cold call reads the daily history of ${what} from the portal, one fetch each, and can spend the client's whole portal budget (20 fetches a minute by default): members it could not read yet are in coverage.missing, and other tools that need the portal answer rate_limited until the budget refills (up to a minute). Once read, histories are cached and calls cost nothing; try a small index (KSE30) or a sector first.`;

/** The archive's deps; its tools are only listed when the service has it (server.ts). */
function archiveOf(t: ToolContext): NonNullable<ToolContext['archive']> {
  if (t.archive === undefined) throw new NotFoundError('this service has no archive');
  return t.archive;
}

/** A performance table as text: the returns by period, then risk and range, one line each. */
function performanceText(r: Structured, what: string): string {
  const { returns, ...rest } = r.data as Record<string, unknown>;
  const rows = returns as Record<string, unknown>[];
  const columns = rows.some((row) => row.benchmark_return_pct !== undefined)
    ? [...PERFORMANCE_COLUMNS, 'benchmark_return_pct', 'excess_return_pct']
    : PERFORMANCE_COLUMNS;
  const lines = Object.entries(rest).map(([k, v]) => {
    if (v === null || typeof v !== 'object') return fields({ [k]: v });
    const parts = Object.entries(v).filter(([, x]) => x !== null);
    return `${k}: ${parts.map(([pk, x]) => `${pk}=${String(x)}`).join(' ') || '—'}`;
  });
  return `${title(r, what)}\n${table(rows, columns)}\n${lines.join('\n')}`;
}

/** An overview's parts as lines: each part's state (rows, or its error) and its as_of. */
function partsText(o: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(o)) {
    if (value === null || typeof value !== 'object' || !('data' in value)) continue;
    const part = value as { data: unknown; as_of: string | null; error: { message: string } | null };
    const state =
      part.error !== null
        ? `missing: ${part.error.message}`
        : Array.isArray(part.data)
          ? `${part.data.length} rows`
          : 'ok';
    lines.push(`${name}: ${state} (as of ${part.as_of ?? 'n/a'})`);
  }
  return lines.join('\n');
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
    description: `One row per trading day (open, high, low, close in PKR, volume, anomaly flags), oldest first unless order=desc. ${SERIES_PAGING} Prices are raw (as traded) by default: adjusted=true adjusts them for the capital changes (bonus, right, split) the exchange records and the raw prices confirm (adjustment says how far it reaches); dividends=true (with adjusted) also for cash dividends. A symbol's first call may spend 1–3 portal fetches (the history, the adjusted series, the payouts), then it is cached.`,
    input: args({
      symbol: Symbol,
      start: Day('first day'),
      end: Day('last day'),
      order: Order,
      limit: HistoryLimit,
      offset: HistoryOffset,
      adjusted: Type.Optional(
        Type.Boolean({ description: 'adjust for capital changes; default false (raw prices)' }),
      ),
      dividends: Type.Optional(
        Type.Boolean({ description: 'with adjusted=true, also for cash dividends; default false' }),
      ),
    }),
    output: series(Days, { adjustment: Type.Optional(AdjustmentMeta), order: Type.Enum(['asc', 'desc']) }),
    run: async (a, t) => {
      const range = { start: a.start, end: a.end, order: a.order };
      if (a.dividends === true && a.adjusted !== true) {
        throw new BadRequestError('dividends=true adjusts prices: use it with adjusted=true');
      }
      const answer = a.adjusted
        ? await adjustedHistorical(t.datasets, a.symbol, { ...range, dividends: a.dividends === true }, t.ctx)
        : await historical(t.datasets, a.symbol, range, t.ctx);
      const desc = a.order === 'desc';
      return {
        ...seriesPage(answer, a.limit ?? HISTORY_DEFAULT, desc, a.offset),
        order: desc ? 'desc' : 'asc',
      };
    },
    render: (r) => {
      const adj = r.adjustment as { status: string } | undefined;
      const note = adj === undefined ? ' (raw prices)' : ` (adjusted: ${adj.status})`;
      const cols = adj === undefined ? HISTORY_COLUMNS : [...HISTORY_COLUMNS, 'adjustment_factor'];
      return seriesText(`Daily rows${note}`, r, cols, r.order === 'desc');
    },
  }),
  tool({
    name: 'get_intraday',
    title: "Today's prints or bars of a symbol",
    description:
      "Today's trades (or with date, a past day's as the archive kept it), oldest first: interval=tick gives every print {time, price, volume}; 1m…60m give OHLCV bars on the Karachi clock. Empty before the day's first print. Paged.",
    input: args({ symbol: Symbol, date: IntradayDate, interval: Interval, ...paging(100, 1000) }),
    output: list(Type.Union([StockTick, IntradayBar])),
    run: async (a, t) => {
      const interval = a.interval ?? '5m';
      const day = pastDay(a.date, t, 'get_intraday');
      const symbol = a.symbol.toUpperCase();
      const answer = day
        ? await pastIntraday(archiveOf(t).archive, 'stock', symbol, day, interval, t.marketClock.now())
        : await stockIntraday(t.datasets, symbol, interval, t.ctx);
      return page(answer, a.offset, a.limit ?? 100);
    },
    render: (r) => pageText('Intraday', r, Object.keys((r.data as object[])[0] ?? { time: 0 })),
  }),
  tool({
    name: 'get_corporate_actions',
    title: 'Corporate actions',
    description:
      'Bonus, split and right issues (confirmed by the raw prices) and cash dividends the exchange records, oldest first, with their evidence and whether adjusted history applies them; coverage says how far back the record reaches.',
    input: args({ symbol: Symbol }),
    output: list(CorporateAction, { coverage: CorporateActionsCoverage }),
    run: async (a, t) => page(await corporateActions(t.datasets, a.symbol, t.ctx, t.archive?.archive)),
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
    description: `One row per trading day (open, close, volume) of an index, oldest first unless order=desc (about five years are held). ${SERIES_PAGING}`,
    input: args({
      index: IndexCode,
      start: Day('first day'),
      end: Day('last day'),
      order: Order,
      limit: HistoryLimit,
      offset: HistoryOffset,
    }),
    output: series(IndexHistoricalRow, { order: Type.Enum(['asc', 'desc']) }),
    run: async (a, t) => {
      const answer = await indexHistorical(
        t.datasets,
        a.index,
        { start: a.start, end: a.end, order: a.order },
        t.ctx,
      );
      const desc = a.order === 'desc';
      return {
        ...seriesPage(answer, a.limit ?? HISTORY_DEFAULT, desc, a.offset),
        order: desc ? 'desc' : 'asc',
      };
    },
    render: (r) => seriesText('Index levels', r, ['date', 'open', 'close', 'volume'], r.order === 'desc'),
  }),
  tool({
    name: 'get_index_intraday',
    title: "An index's ticks or bars today",
    description:
      "Today's index ticks (about every 15 s) with interval=tick, or OHLC bars (1m…60m), oldest first; with date, a past day's as the archive kept it. Paged.",
    input: args({ index: IndexCode, date: IntradayDate, interval: Interval, ...paging(100, 2000) }),
    output: list(Type.Union([IndexTick, IntradayBar])),
    run: async (a, t) => {
      const interval = a.interval ?? '5m';
      const day = pastDay(a.date, t, 'get_index_intraday');
      if (day === undefined) {
        return page(await indexIntraday(t.datasets, a.index, interval, t.ctx), a.offset, a.limit ?? 100);
      }
      const code = resolveIndexCode(a.index);
      if (code === undefined) throw new NotFoundError(`index ${clientText(a.index)} not found`);
      const answer = await pastIntraday(
        archiveOf(t).archive,
        'index',
        code,
        day,
        interval,
        t.marketClock.now(),
      );
      return page(answer, a.offset, a.limit ?? 100);
    },
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
      { missing: Type.Optional(MissingParts) },
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
    run: (_a, t) => {
      const status = marketStatus(t.marketClock.now(), {
        followMarketClock: t.marketClock.followMarketClock,
      });
      return Promise.resolve({ as_of: status.now, data: status });
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
    output: single(Breadth, { missing: Type.Optional(MissingParts) }),
    run: async (_a, t) => one(await breadth(t.datasets, t.ctx)),
    render: (r) => `${title(r, 'Breadth')}\n${fields(r.data as object)}`,
  }),
  tool({
    name: 'get_performance',
    title: "A symbol's returns and risk",
    description: `Returns over 1D…ALL (and each period's benchmark and excess return), 1-year volatility, max drawdown (1 year and all history), 1-year beta and correlation to the benchmark, and the 52-week range, from daily closes adjusted for capital changes by default (adjusted=false: raw). benchmark: an index code (default ${DEFAULT_BENCHMARK}) or none; dividends=true (with adjusted) gives total returns.`,
    input: args({
      symbol: Symbol,
      adjusted: Adjusted,
      dividends: Type.Optional(
        Type.Boolean({ description: 'total return: closes also adjusted for cash dividends; default false' }),
      ),
      benchmark: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 40,
          description: `an index code (default ${DEFAULT_BENCHMARK}), or none`,
        }),
      ),
      end: AsOfEnd,
    }),
    output: single(Performance, {
      adjustment: Type.Optional(AdjustmentMeta),
      missing: Type.Optional(
        Type.Array(Type.String(), { description: 'parts that could not be had (the benchmark)' }),
      ),
    }),
    run: async (a, t) => {
      const flags = parseAdjustedFlags(a.adjusted ?? true, a.dividends);
      const symbol = a.symbol.toUpperCase();
      const benchmark = a.benchmark ?? DEFAULT_BENCHMARK;
      const end = endOf(a.end, t);
      return one(await stockPerformance(t.datasets, symbol, { ...flags, benchmark, end }, t.ctx));
    },
    render: (r) => {
      const missing = r.missing as string[] | undefined;
      const tail = missing === undefined ? '' : `\nMissing: ${missing.join('; ')}`;
      return `${performanceText(r, `${String((r.data as { symbol?: string }).symbol ?? '')} performance`)}${tail}`;
    },
  }),
  tool({
    name: 'get_indicators',
    title: 'Technical indicators',
    description: `Technical indicators of a symbol, one row per trading day, oldest first (date, the close read, each indicator's columns; null during an indicator's warm-up, computed over the whole history then cut to [start, end]). ${SERIES_PAGING} Closes are adjusted for capital changes by default (adjusted=false: raw). indicators: at most ${MAX_INDICATORS}, comma-separated; ${ACCEPTED}; e.g. sma:20,rsi:14,macd:12:26:9.`,
    input: args({
      symbol: Symbol,
      indicators: Type.String({
        minLength: 1,
        maxLength: 400,
        description: `comma-separated, at most ${MAX_INDICATORS}: e.g. sma:20,rsi:14,macd:12:26:9,bbands:20:2,atr:14,obv,vwap:20`,
      }),
      start: Day('first day'),
      end: Day('last day'),
      adjusted: Adjusted,
      limit: HistoryLimit,
      offset: HistoryOffset,
    }),
    output: series(IndicatorRow, {
      indicators: Type.Array(Type.String(), { description: 'the indicators, in canonical form' }),
      adjustment: Type.Optional(AdjustmentMeta),
    }),
    run: async (a, t) => {
      const { adjusted } = parseAdjustedFlags(a.adjusted ?? true, undefined);
      const answer = await stockIndicators(
        t.datasets,
        a.symbol.toUpperCase(),
        { i: a.indicators, start: a.start, end: a.end, adjusted },
        t.ctx,
      );
      return seriesPage(answer, a.limit ?? HISTORY_DEFAULT, false, a.offset);
    },
    render: (r) => {
      const rows = r.data as Record<string, unknown>[];
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      return seriesText('Indicators', r, columns.length > 0 ? columns : ['date', 'close'], false);
    },
  }),
  tool({
    name: 'get_index_performance',
    title: "An index's returns and risk",
    description:
      "An index's returns over 1D…ALL, 1-year volatility, max drawdown and 52-week range (from closes), from its daily levels.",
    input: args({ index: IndexCode, end: AsOfEnd }),
    output: single(Performance),
    run: async (a, t) => one(await indexPerformance(t.datasets, a.index, t.ctx, endOf(a.end, t))),
    render: (r) => performanceText(r, `${String((r.data as { index?: string }).index ?? '')} performance`),
  }),
  tool({
    name: 'rank_performance',
    title: 'Members ranked by return',
    description: `The members of an index (default KSE100) or of a sector (code or name; not both) ranked by return over a period on closes adjusted for capital changes (always adjusted), highest first (members without a return last, rank null), with the shares traded over the period; index_return is the index's own return, coverage how many members had data. With end and sector or index ALLSHR (and the archive), the equities of the period's start day delisted since are ranked too (delisted: true, raw closes); any other index's past membership is unpublished, so its members are today's (coverage.membership says which). Paged. ${MANY_FETCHES('each member')}`,
    input: args({
      period: PeriodArg,
      index: Type.Optional(IndexCode),
      sector: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 60,
          description: 'a sector code (0801) or name, instead of index',
        }),
      ),
      end: AsOfEnd,
      ...paging(50, 500),
    }),
    output: list(MemberReturn, {
      period: Type.String(),
      index_return: Type.Optional(
        Type.Object({
          index: Type.String(),
          return_pct: Type.Union([Type.Number(), Type.Null()]),
          start_date: Type.Union([Type.String(), Type.Null()]),
          end_date: Type.Union([Type.String(), Type.Null()]),
          reason: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
      coverage: Type.Object({
        members: Type.Integer(),
        with_data: Type.Integer(),
        missing: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() })),
      }),
    }),
    run: async (a, t) => {
      if (a.index !== undefined && a.sector !== undefined) {
        throw new BadRequestError('give index or sector, not both');
      }
      const period = (a.period ?? '1M') as Period;
      const answer = await marketPerformance(
        t.datasets,
        t.memberSeries,
        { period, index: a.index, sector: a.sector, end: endOf(a.end, t), archive: t.archive?.archive },
        t.ctx,
      );
      return page(answer, a.offset, a.limit ?? 50);
    },
    render: (r) => {
      const c = r.coverage as { members: number; with_data: number };
      const idx = r.index_return as { index: string; return_pct: number | null } | undefined;
      const bench = idx === undefined ? '' : `; ${idx.index} ${idx.return_pct ?? '—'}%`;
      const note = (r.coverage as { membership?: { note: string } }).membership?.note;
      return `${pageText(`Ranking over ${String(r.period)}`, r, RANK_COLUMNS)}\nCoverage: ${c.with_data} of ${c.members} members${bench}${note ? `\n${note}` : ''}`;
    },
  }),
  tool({
    name: 'get_sector_performance',
    title: "Sectors' returns",
    description: `Each sector's cap-weighted return over a period (members' returns on closes adjusted for capital changes, always adjusted, weighted by today's market cap, or the cap at end in today's shares), highest first; beside it (delisted equities have no cap) equal_weight_return_pct and median_return_pct over members_at_start, the members that traded at the period's start including delisted_members (with the archive); coverage says how many members had data and coverage.membership whether the delisted are included. ${MANY_FETCHES('every listed equity (hundreds)')}`,
    input: args({ period: PeriodArg, end: AsOfEnd }),
    output: list(SectorReturn, {
      period: Type.String(),
      coverage: Type.Object({
        members: Type.Integer(),
        with_data: Type.Integer(),
        missing: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() })),
      }),
    }),
    run: async (a, t) =>
      page(
        await sectorPerformance(
          t.datasets,
          t.memberSeries,
          (a.period ?? '1M') as Period,
          t.ctx,
          endOf(a.end, t),
          t.archive?.archive,
        ),
      ),
    render: (r) => {
      const c = r.coverage as { members: number; with_data: number };
      return `${pageText(`Sectors over ${String(r.period)}`, r, [
        'rank',
        'sector_code',
        'sector_name',
        'return_pct',
        'equal_weight_return_pct',
        'members_counted',
        'members_at_start',
        'members',
      ])}\nCoverage: ${c.with_data} of ${c.members} members`;
    },
  }),
  tool({
    name: 'get_market_payouts',
    title: 'Dividends, bonus and right issues announced',
    description:
      'Entitlements announced across the market with an announcement day in [from, to] (default the 30 days to today; at most one year), newest first, with ex-date and last day to buy (settlement cycle over weekdays), percent and PKR a share. coverage says whether every portal row of the range was read. Paged.',
    input: args({ ...PayoutsParameters, ...paging(50, 1000) }),
    output: list(MarketPayout, {
      coverage: PayoutsCoverage,
      trading_days: Type.Optional(PayoutsTradingDays),
      archive: Type.Optional(PayoutsFromArchive),
    }),
    run: async (a, t) => {
      const range = dateRange(a.from, a.to, t.marketClock.now(), 30, 'past');
      const kept = t.archive ? { archive: t.archive.archive, now: t.marketClock.now() } : undefined;
      const answer = await marketPayouts(t.feeds, { ...range, kind: a.kind, symbol: a.symbol }, t.ctx, kept);
      return page(answer, a.offset, a.limit ?? 50);
    },
    render: (r) => {
      const c = r.coverage as { complete: boolean; missing: string | null };
      const note = c.complete ? '' : `\nIncomplete: ${c.missing ?? 'some rows were not read'}`;
      return `${pageText('Payouts', r, [
        'announced_at',
        'symbol',
        'kind',
        'label',
        'amount_per_share',
        'ex_date',
        'last_day_to_buy',
      ])}${note}`;
    },
  }),
  tool({
    name: 'get_market_calendar',
    title: 'Company meetings (AGM, EOGM)',
    description:
      'Company meetings with a date in [from, to] (default today and the 30 days after; at most one year), in date and time order. Paged.',
    input: args({ ...CalendarParameters, ...paging(50, 1000) }),
    output: list(Meeting),
    run: async (a, t) => {
      const range = dateRange(a.from, a.to, t.marketClock.now(), 30, 'future');
      return page(
        await meetings(t.feeds, { ...range, type: a.type, symbol: a.symbol }, t.ctx),
        a.offset,
        a.limit ?? 50,
      );
    },
    render: (r) => pageText('Meetings', r, Object.keys((r.data as object[])[0] ?? { date: 0 })),
  }),
  tool({
    name: 'search_announcements',
    title: 'Announcements across the exchange',
    description:
      "The exchange's announcement search, newest first: companies (default), psx, secp, cdc or nccpl notices; query searches titles; symbol (companies only), from and to narrow it. One page per call: pass next_cursor back as cursor for the next page (null on the last); total is the matches the portal reports.",
    input: args({
      query: q,
      ...announcementFilters,
      cursor: Type.Optional({ ...cursor, description: 'next_cursor of the previous page' }),
    }),
    output: Type.Object({
      as_of: Type.Union([Type.String(), Type.Null()]),
      total: Type.Integer({ description: 'matches the portal reports' }),
      count: Type.Integer({ description: 'rows in this page' }),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description: 'cursor of the next page, null on the last',
      }),
      data: Type.Array(inline(MarketAnnouncement)),
    }),
    run: async (a, t) => {
      if (a.from !== undefined && a.to !== undefined) checkRange(a.from, a.to);
      const answer = await marketAnnouncements(
        t.feeds,
        {
          type: a.type ?? 'companies',
          q: a.query,
          symbol: a.symbol,
          from: a.from,
          to: a.to,
          limit: a.limit ?? DEFAULT_ANNOUNCEMENTS_LIMIT,
          cursor: a.cursor,
        },
        t.ctx,
      );
      const meta = answer.meta as { next: string | null; total: number };
      const next = meta.next === null ? null : new URLSearchParams(meta.next.split('?')[1]).get('cursor');
      return {
        as_of: answer.asOf,
        total: meta.total,
        count: answer.data.length,
        next_cursor: next,
        data: answer.data,
      };
    },
    render: (r) => {
      const head = `Announcements: ${String(r.count)} of ${String(r.total)} (as of ${r.as_of ?? 'n/a'})`;
      const more = r.next_cursor === null ? '' : `\nMore: call again with cursor=${String(r.next_cursor)}.`;
      return `${head}\n${table(r.data as unknown[], ['date', 'time', 'symbol', 'title', 'document_url'])}${more}`;
    },
  }),
  tool({
    name: 'list_debt',
    title: 'The debt market',
    description:
      "Every instrument of the exchange's debt-market page in page order: government securities, then corporate TFCs and sukuks, with issue size (PKR), coupon (percent) and dates. Paged.",
    input: args({ ...paging(100, 1000) }),
    output: list(DebtInstrument),
    run: async (a, t) => page(await debtInstruments(t.feeds, t.ctx), a.offset, a.limit ?? 100),
    render: (r) => pageText('Debt instruments', r, Object.keys((r.data as object[])[0] ?? { code: 0 })),
  }),
  tool({
    name: 'get_debt_quote',
    title: "A debt instrument's quote",
    description:
      "The bills-and-bonds board's row for a debt security (bid, offer, yields, last price and yield, volume; zeros where nothing is bid, offered or traded), named from the debt-market page. not_found when the code is not on the debt market or not on the board today.",
    input: args({ code: DebtCode }),
    output: single(DebtQuote),
    run: async (a, t) => one(await debtQuote(t.feeds, a.code, t.ctx)),
    render: (r) =>
      `${title(r, `${String((r.data as { code?: string }).code ?? '')} debt quote`)}\n${fields(r.data as object)}`,
  }),
  tool({
    name: 'get_board',
    title: "Another market's board",
    description:
      'The futures, cash-settled futures, index futures, odd-lot or bills-and-bonds board: every symbol eligible for that market (with its row when it traded today), then rows the eligible list does not name. Futures symbols carry their contract month (ENGRO-DEC). Paged.',
    input: args({
      board: Type.Enum(BOARD_NAMES, { description: 'which board' }),
      ...paging(100, 2000),
    }),
    output: list(BoardQuote),
    run: async (a, t) => page(await board(t.feeds, a.board, t.ctx), a.offset, a.limit ?? 100),
    render: (r) => pageText('Board', r, Object.keys((r.data as object[])[0] ?? { symbol: 0 })),
  }),
  tool({
    name: 'get_market_daily',
    title: "Every symbol's bar on one date",
    description:
      "Each symbol's daily bar on a trading day, by symbol, from the archive (no portal fetch), raw prices by default (adjusted=true: adjusted with the factors the archive keeps); narrow with index (its current constituents), sector (4-digit code) or symbols. A date without a session is not_found, naming the previous and next trading days. Paged.",
    needs: 'archive',
    input: args({
      date: Type.String({ format: 'date', description: 'the trading day, YYYY-MM-DD (Karachi)' }),
      index: Type.Optional(IndexCode),
      sector: Type.Optional(
        Type.String({ minLength: 1, maxLength: 8, description: 'a 4-digit sector code, e.g. 0804' }),
      ),
      symbols: Type.Optional(SymbolList),
      adjusted: ArchiveAdjusted,
      dividends: ArchiveDividends,
      ...paging(100, 1000),
    }),
    output: list(Type.Union([AdjustedDailyBar, DailyBar]), {
      adjustment: Type.Optional(ArchiveAdjustmentMeta),
    }),
    run: async (a, t) => {
      const { archive, now } = archiveOf(t);
      const flags = parseAdjustedFlags(a.adjusted, a.dividends);
      const symbols =
        a.symbols === undefined ? undefined : [...new Set(a.symbols.map((s) => s.toUpperCase()))];
      const answer = await marketDaily(
        archive,
        t.datasets,
        { date: a.date, index: a.index, sector: a.sector, symbols, ...flags },
        t.ctx,
        now(),
      );
      return page(answer, a.offset, a.limit ?? 100);
    },
    render: (r) => pageText(`Daily bars${adjustedNote(r)}`, r, barColumns(r)),
  }),
  tool({
    name: 'get_market_universe',
    title: "Every equity in one day's closing file",
    description:
      "The equities in the exchange's closing file of a day (every symbol that traded, delisted ones included): name (ex-marker removed), 4-digit sector code, marker (XD/XB/XR or null) and whether the exchange still lists it today. A survivorship-free universe for backtests. A date without a file is not_found, naming the previous and next trading days. Paged.",
    needs: 'archive',
    input: args({
      date: Type.String({ format: 'date', description: 'the trading day, YYYY-MM-DD (Karachi)' }),
      ...paging(200, 2000),
    }),
    output: list(UniverseRow),
    run: async (a, t) => {
      const { archive, now } = archiveOf(t);
      const at = now();
      const rows = await universe(archive, t.datasets, a.date, t.ctx, karachiDate(at));
      return page(universeAnswer(a.date, rows, at), a.offset, a.limit ?? 200);
    },
    render: (r) => pageText('Universe', r, ['symbol', 'name', 'sector_code', 'marker', 'listed_today']),
  }),
  tool({
    name: 'get_panel',
    title: "Many symbols' daily history",
    description: `Up to ${MAX_BATCH_SYMBOLS} symbols' daily bars over [start, end] as long rows (by symbol, then date), raw prices by default (adjusted=true: adjusted with the factors the archive keeps): from the archive where it holds them, else from the portal within the budget (one fetch per symbol the archive lacks). not_found names symbols the exchange does not list, incomplete those whose rows could not be had now. Paged.`,
    needs: 'archive',
    input: args({
      symbols: SymbolList,
      start: Day('first day'),
      end: Day('last day'),
      adjusted: ArchiveAdjusted,
      dividends: ArchiveDividends,
      ...paging(500, 5000),
    }),
    output: list(Type.Union([AdjustedDailyBar, DailyBar]), {
      adjustment: Type.Optional(ArchiveAdjustmentMeta),
      not_found: Type.Array(Type.String(), { description: 'symbols the exchange does not list' }),
      incomplete: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() }), {
        description: 'symbols whose rows are missing now, and why',
      }),
      sources: Type.Object({ archive: Type.Array(Type.String()), portal: Type.Array(Type.String()) }),
    }),
    run: async (a, t) => {
      const { archive, now } = archiveOf(t);
      const flags = parseAdjustedFlags(a.adjusted, a.dividends);
      const symbols = [...new Set(a.symbols.map((s) => s.toUpperCase()))];
      const answer = await historicalPanel(
        archive,
        t.datasets,
        { symbols, start: a.start, end: a.end, layout: 'long', field: 'close', ...flags },
        t.ctx,
        now(),
      );
      return page(answer, a.offset, a.limit ?? 500);
    },
    render: (r) => {
      const missing = [
        ...(r.not_found as string[]),
        ...(r.incomplete as { symbol: string }[]).map((i) => i.symbol),
      ];
      const tail = missing.length > 0 ? `\nNot found or incomplete: ${missing.join(', ')}` : '';
      return `${pageText(`Panel${adjustedNote(r)}`, r, barColumns(r))}${tail}`;
    },
  }),
  tool({
    name: 'list_trading_days',
    title: 'Trading days',
    description:
      "The days the exchange traded within [from, to] (default the last 365 days), from the archive (the exchange publishes no holiday calendar), with the sessions' hours. Paged.",
    needs: 'archive',
    input: args({ from: Day('first day'), to: Day('last day (default today)'), ...paging(400, 5000) }),
    output: list(TradingDay),
    run: async (a, t) => {
      const { archive, now } = archiveOf(t);
      const at = now();
      const to = a.to ?? karachiDate(at);
      const from = a.from ?? addDays(to, -365);
      return page(await tradingDays(archive, from, to, at), a.offset, a.limit ?? 400);
    },
    render: (r) =>
      pageText('Trading days', r, ['date', 'weekday', 'open', 'close', 'break_start', 'break_end']),
  }),
  tool({
    name: 'get_archive_status',
    title: "The archive's contents and progress",
    description:
      'What the archive holds (symbols backfilled of those listed, bars, trading days) and how far the archiver is: rate, time left, its share of the portal budget, the last closing record and the last error.',
    needs: 'archive',
    input: args({}),
    output: single(ArchiveStatus),
    run: async (_a, t) => {
      const { archive, archiver, now } = archiveOf(t);
      return one(await archiveStatus(archive, archiver, now()));
    },
    render: (r) => `${title(r, 'Archive')}\n${fields(r.data as object)}`,
  }),
  tool({
    name: 'get_symbol_overview',
    title: 'Everything about a symbol',
    description:
      "A symbol's quote, profile, the last 365 days of daily bars, today's 5-minute bars, corporate actions, the newest 10 announcements, annual financials, filed reports and the market state in one call. Each part is settled on its own: a part that could not be had has data null and an error (with retry_at); the rest is served. as_of is the oldest part's. Cold, it spends about 8 portal fetches of the client's budget, one fewer when the archive holds the symbol's bars through the last closed session (meta.history_source says which).",
    input: args({ symbol: Symbol }),
    output: single(StockOverview),
    run: async (a, t) =>
      one(await stockOverview(t.datasets, a.symbol, t.ctx, t.marketClock, { archive: t.archive?.archive })),
    render: (r) => {
      const o = r.data as Record<string, unknown>;
      const q = (o.quote as { data: Record<string, unknown> | null }).data;
      const quoteLine =
        q === null
          ? 'quote: —'
          : fields(q, [
              'price',
              'change',
              'change_pct',
              'volume',
              'market_cap',
              'pe_ratio',
              'dividend_yield',
            ]);
      const market = o.market as { state?: string };
      return `${title(r, `${String(o.symbol)} overview`)}\nmarket: ${market.state ?? '—'}\n${quoteLine}\n${partsText(o)}`;
    },
  }),
  tool({
    name: 'get_market_overview',
    title: 'The market at a glance',
    description: `Index levels, breadth, the top gainers, losers and most active, the sector summary, the market state, and one index's (default ${DEFAULT_OVERVIEW_INDEX}) 5-minute bars and constituents, in one call. Each part is settled on its own: a part that could not be had has data null and an error (with retry_at); the rest is served. Cold, it spends about 6 portal fetches of the client's budget.`,
    input: args({
      index: Type.Optional(IndexCode),
      movers: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_OVERVIEW_MOVERS,
          description: `rows in each mover list; default ${DEFAULT_OVERVIEW_MOVERS}`,
        }),
      ),
    }),
    output: single(MarketOverview),
    run: async (a, t) =>
      one(await marketOverview(t.datasets, { index: a.index, movers: a.movers }, t.ctx, t.marketClock)),
    render: (r) => {
      const o = r.data as Record<string, unknown>;
      const indices = (o.indices as { data: unknown[] | null }).data ?? [];
      const movers = (o.movers as { data: Record<string, unknown[]> | null }).data;
      const moverText =
        movers === null
          ? ''
          : ['gainers', 'losers', 'active']
              .map(
                (k) =>
                  `${k}: ${(movers[k] ?? []).map((m) => `${(m as { symbol: string }).symbol} ${(m as { change_pct: number | null }).change_pct ?? '—'}%`).join(', ')}`,
              )
              .join('\n');
      const idx = o.index as Record<string, unknown>;
      return [
        title(r, 'Market overview'),
        `market: ${String((o.market as { state?: string }).state ?? '—')}`,
        table(indices, ['index', 'current', 'change', 'change_pct']),
        moverText,
        partsText(o),
        `index ${String(idx.code)}:\n${partsText(idx)}`,
      ]
        .filter((x) => x !== '')
        .join('\n');
    },
  }),
];

/**
 * The core set (MCP_TOOLS=core) for hosts that take few tools: finding a symbol, its quote,
 * history, company data and analytics, and the market's state, movers, indices and screen. The
 * overviews gather much of the rest in one call.
 */
export const CORE_TOOLS: ReadonlySet<string> = new Set([
  'search_stocks',
  'get_quote',
  'get_quotes',
  'get_history',
  'get_intraday',
  'get_corporate_actions',
  'get_profile',
  'get_financials',
  'get_announcements',
  'get_performance',
  'get_indicators',
  'list_indices',
  'get_index_history',
  'screen_stocks',
  'get_market_status',
  'get_movers',
  'get_symbol_overview',
  'get_market_overview',
]);

/** Tools by name. */
export const TOOL_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));
