// The whole-market endpoints over the archive (docs/archive.md): a day's bars for every symbol,
// many symbols' histories as one panel, the trading days, and the archive's progress.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { MarketArchive } from '../../market/archive/archive.ts';
import {
  archiveStatus,
  historicalPanel,
  marketDaily,
  tradingDays,
  universeAnswer,
} from '../../market/whole-market/answers.ts';
import { DAILY_MARKETS, universe, type DailyMarket } from '../../market/archive/files.ts';
import {
  AdjustedMarketDailyBar,
  ContractDailyRow,
  fileModelSchemas,
  MarketDailyBar,
  UniverseRow,
} from '../../market/models/files.ts';
import { parseAdjustedFlags } from '../../market/corporate-actions/adjusted-history.ts';
import {
  AdjustedDailyBar,
  ArchiveAdjustmentMeta,
  archiveModelSchemas,
  DailyBar,
  TradingDay,
} from '../../market/models/archive.ts';
import { MAX_BATCH_SYMBOLS } from '../../market/quotes/quotes.ts';
import { addDays } from '../../time/karachi.ts';
import { karachiDate } from '../../time/market-clock.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  query,
  singleEnvelope,
} from '../pipeline/schemas.ts';
import { symbolList, SymbolsQuery } from './quotes.ts';
import type { RouteDeps } from './deps.ts';
import type { ArchiverStatus } from '../../market/archive/archive.ts';

export interface ArchiveDeps {
  archive: MarketArchive;
  archiver: { status(): ArchiverStatus } | undefined;
  now: () => number;
}

export const archiveSchemas = [...archiveModelSchemas, ...fileModelSchemas];

const DateParam = (description: string) => Type.String({ format: 'date', description });

const FIELDS = ['close', 'open', 'high', 'low', 'volume'] as const;

const ADJUSTED_DOC =
  ' With adjusted=true each row is an AdjustedDailyBar: prices × adjustment_factor from the corporate-action factors the archive keeps for the symbol (recorded by the archiver with each backfilled symbol, and whenever the service analyses a symbol’s actions), exactly as /stocks/{symbol}/historical?adjusted=true applies them; dividends=true also folds in the cash dividends kept. meta.adjustment says per symbol whether that was full, partial (and why: rows older than the adjusted series seen, or newer than the last check) or unavailable (no kept record: raw prices, adjustment_factor null).';

const AdjustFlags = {
  adjusted: Type.Optional(
    Type.Boolean({
      description:
        '`true`: prices adjusted for capital changes with the factors the archive keeps; `false` (default): raw prices as traded',
    }),
  ),
  dividends: Type.Optional(
    Type.Boolean({
      description:
        'with adjusted=true: `true` also adjusts for the cash dividends kept (total-return prices)',
    }),
  ),
};

const DailyRow = Type.Union([
  Type.Unsafe({ $ref: 'AdjustedMarketDailyBar#' }),
  Type.Unsafe({ $ref: 'MarketDailyBar#' }),
  Type.Unsafe({ $ref: 'ContractDailyRow#' }),
]);

function universeRoute(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf, archive, now } = deps;
  r.get(
    '/market/universe',
    {
      schema: {
        operationId: 'listMarketUniverse',
        summary: "Every equity in one day's closing file, delisted ones included",
        description:
          "The equities in the exchange's closing file of `date` (every symbol that traded that day), with the name as the file abbreviates it (ex-marker removed), the sector code, the marker and whether the exchange still lists the symbol today: the survivorship-free universe of that day. A date without a file (weekend, holiday, not archived yet) is a 404 naming the previous and next trading days.",
        tags: ['market'],
        querystring: query({
          date: DateParam('the trading day, YYYY-MM-DD (Karachi), e.g. date=2015-06-15'),
        }),
        response: {
          200: listEnvelope('UniverseRow', 'equities by symbol'),
          ...errorResponses({
            400: 'date in the future',
            404: 'no closing file on that date (naming the previous and next trading days)',
            ...unavailable,
          }),
        },
      },
    },
    async (req, reply) => {
      const { date } = req.query;
      const at = now();
      const rows = await universe(archive, datasets, date, contextOf(req), karachiDate(at));
      const answer = universeAnswer(date, rows, at);
      return respond.send(req, reply, answer, {
        filename: `universe-${date}`,
        columns: columnsOf(UniverseRow),
      });
    },
  );
}

const unavailable = {
  503: 'the archive is unavailable (not_ready, with Retry-After); other endpoints keep working',
};

type Deps = RouteDeps & ArchiveDeps;

export function archiveRoutes(app: FastifyInstance, deps: Deps): void {
  dailyRoute(app, deps);
  universeRoute(app, deps);
  panelRoute(app, deps);
  tradingDaysRoute(app, deps);
  statusRoute(app, deps);
}

function dailyRoute(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf, archive, now } = deps;
  r.get(
    '/market/daily',
    {
      schema: {
        operationId: 'listMarketDaily',
        summary: "Every symbol's bar on one date",
        description:
          "Grouped daily: each symbol's raw bar (as traded) on `date`, by symbol, from the archive. Narrow with index= (the index's current constituents), sector= (4-digit code) or symbols=. A date without a session is a 404 naming the previous and next trading days." +
          ADJUSTED_DOC,
        tags: ['market'],
        querystring: query({
          date: DateParam('the trading day, YYYY-MM-DD (Karachi), e.g. date=2026-11-20'),
          index: Type.Optional(
            Type.String({ minLength: 1, maxLength: 40, description: 'only this index, e.g. KSE100' }),
          ),
          sector: Type.Optional(
            Type.String({ minLength: 1, maxLength: 8, description: 'only this sector, e.g. 0804' }),
          ),
          symbols: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 2_700,
              description: `only these, comma-separated, at most ${MAX_BATCH_SYMBOLS}`,
            }),
          ),
          market: Type.Optional(
            Type.Enum([...DAILY_MARKETS], {
              description:
                "equities (default): every equity's bar; futures, index_futures, debt: the closing file's rows of that market (ContractDailyRow)",
            }),
          ),
          ...AdjustFlags,
        }),
        response: {
          200: listEnvelope(
            DailyRow,
            'rows by symbol: MarketDailyBar (AdjustedMarketDailyBar with adjusted=true); ContractDailyRow for market=futures|index_futures|debt',
            {
              adjustment: Type.Optional(ArchiveAdjustmentMeta),
            },
          ),
          ...errorResponses({
            400: 'date in the future; more than 100 symbols; a malformed sector; dividends=true without adjusted=true; index=, sector= or adjusted= with a market other than equities',
            404: 'no session on that date (naming the previous and next), unknown index or sector',
            ...unavailable,
          }),
        },
      },
    },
    async (req, reply) => {
      const { date, index, sector } = req.query;
      const market = (req.query.market ?? 'equities') as DailyMarket;
      const flags = parseAdjustedFlags(req.query.adjusted, req.query.dividends);
      const symbols = req.query.symbols === undefined ? undefined : symbolList(req.query.symbols);
      const answer = await marketDaily(
        archive,
        datasets,
        { date, index, sector, symbols, market, ...flags },
        contextOf(req),
        now(),
      );
      const model =
        market !== 'equities' ? ContractDailyRow : flags.adjusted ? AdjustedMarketDailyBar : MarketDailyBar;
      const suffix = market !== 'equities' ? `-${market}` : flags.adjusted ? '-adjusted' : '';
      return respond.send(req, reply, answer, {
        filename: `market-daily-${date}${suffix}`,
        columns: columnsOf(model),
      });
    },
  );
}

function panelRoute(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf, archive, now } = deps;
  r.get(
    '/historical',
    {
      schema: {
        operationId: 'listPanel',
        summary: "Many symbols' daily history as one panel",
        description:
          "Up to 100 symbols' raw daily bars over [start, end]. layout=long (default): rows of DailyBar by symbol then date. layout=wide: one row per date, `date` first, then one column per symbol in the order asked (a numeric-looking symbol such as 786 too, in JSON and CSV), holding `field` (close by default); as CSV, `pandas.read_csv(url, index_col=0, parse_dates=True)` reads it as a panel. Symbols the archive holds are read from it; the rest come from the portal within the budget. meta.not_found lists symbols the exchange does not list, meta.incomplete those whose rows could not be had now (and why), meta.sources where each came from." +
          ADJUSTED_DOC +
          ' A symbol not in the archive is adjusted as its own adjusted history is (from the portal, within the budget).',
        tags: ['stocks'],
        querystring: query({
          ...SymbolsQuery.properties,
          start: Type.Optional(DateParam('first day, inclusive')),
          end: Type.Optional(DateParam('last day, inclusive')),
          layout: Type.Optional(Type.Enum(['long', 'wide'], { description: 'long (default) or wide' })),
          field: Type.Optional(
            Type.Enum([...FIELDS], { description: 'the value in a wide table; close by default' }),
          ),
          ...AdjustFlags,
        }),
        response: {
          200: listEnvelope(
            Type.Union([
              Type.Unsafe({ $ref: 'AdjustedDailyBar#' }),
              Type.Unsafe({ $ref: 'DailyBar#' }),
              Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()])),
            ]),
            'long: DailyBar rows (AdjustedDailyBar with adjusted=true); wide: {date, SYMBOL: value, …} rows',
            {
              not_found: Type.Array(Type.String(), { description: 'symbols the exchange does not list' }),
              incomplete: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() }), {
                description: 'symbols whose rows are missing now, and why',
              }),
              sources: Type.Object({
                archive: Type.Array(Type.String()),
                portal: Type.Array(Type.String()),
                files: Type.Array(Type.String(), {
                  description:
                    "symbols no longer listed, read from the exchange's closing files (raw prices)",
                }),
              }),
              adjustment: Type.Optional(ArchiveAdjustmentMeta),
            },
          ),
          ...errorResponses({
            400: 'no symbols, more than 100, a malformed one; start after end; dividends=true without adjusted=true',
            ...unavailable,
          }),
        },
      },
    },
    async (req, reply) => {
      const flags = parseAdjustedFlags(req.query.adjusted, req.query.dividends);
      const symbols = symbolList(req.query.symbols);
      const layout = req.query.layout ?? 'long';
      const field = req.query.field ?? 'close';
      const answer = await historicalPanel(
        archive,
        datasets,
        { symbols, start: req.query.start, end: req.query.end, layout, field, ...flags },
        contextOf(req),
        now(),
      );
      const suffix = flags.adjusted ? '-adjusted' : '';
      return respond.send(req, reply, answer, {
        filename: layout === 'wide' ? `panel-${field}${suffix}` : `panel${suffix}`,
        columns:
          layout === 'wide' ? ['date', ...symbols] : columnsOf(flags.adjusted ? AdjustedDailyBar : DailyBar),
        integerColumns: layout === 'wide' && field === 'volume' ? symbols : undefined,
      });
    },
  );
}

function tradingDaysRoute(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { respond, archive, now } = deps;
  r.get(
    '/market/trading-days',
    {
      schema: {
        operationId: 'listTradingDays',
        summary: 'Trading days, from the archive',
        description:
          'The days the exchange traded within [from, to] (default: the last 365 days), derived from the archive (the portal publishes no holiday calendar), with the sessions’ hours of the current schedule.',
        tags: ['market'],
        querystring: query({
          from: Type.Optional(DateParam('first day, inclusive')),
          to: Type.Optional(DateParam('last day, inclusive (default today)')),
        }),
        response: {
          200: listEnvelope('TradingDay', 'trading days, oldest first'),
          ...errorResponses({ 400: 'from after to', ...unavailable }),
        },
      },
    },
    async (req, reply) => {
      const at = now();
      const to = req.query.to ?? karachiDate(at);
      const from = req.query.from ?? addDays(to, -365);
      const answer = await tradingDays(archive, from, to, at);
      return respond.send(req, reply, answer, { filename: 'trading-days', columns: columnsOf(TradingDay) });
    },
  );
}

function statusRoute(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { respond, archive, archiver, now } = deps;
  r.get(
    '/archive/status',
    {
      schema: {
        operationId: 'getArchiveStatus',
        summary: "The archive's contents and the backfill's progress",
        description:
          'Symbols backfilled of those listed, bars and trading days held, the backfill rate and estimated time left, the archiver’s share of the portal budget, the last closing record and the last error. Never cached: progress changes by the second.',
        tags: ['service'],
        querystring: FormatQuery,
        response: {
          200: singleEnvelope('ArchiveStatus', 'what the archive holds and how far the archiver is'),
          ...errorResponses(unavailable),
        },
      },
    },
    async (req, reply) => {
      const answer = await archiveStatus(archive, archiver, now());
      return respond.send(req, reply, answer, { filename: 'archive-status', columns: [] });
    },
  );
}
