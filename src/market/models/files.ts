// The API's shapes of the daily closing files' answers (docs/archive.md).
import { Type, type Static } from 'typebox';
import { AdjustedHistoricalRow, HistoricalRow } from './resources.ts';

const NullableNum = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const Marker = Type.Union([Type.Literal('XD'), Type.Literal('XB'), Type.Literal('XR'), Type.Null()], {
  description:
    "the ex-marker the exchange's closing file printed on the name that day: XD ex-dividend, XB ex-bonus, XR ex-right; null without one (or no file that day)",
});

const Source = Type.Union([Type.Literal('history'), Type.Literal('file')], {
  description:
    "history: the symbol's portal history (or the closing record) — served where it and the file disagree (GET /archive/status lists the differences); file: the exchange's closing file (symbols no longer listed, days before the portal's history)",
});

export const MarketDailyBar = Type.Object(
  {
    symbol: Type.String(),
    ...HistoricalRow.properties,
    marker: Marker,
    source: Source,
    ldcp: NullableNum(
      "the previous close (LDCP) the exchange's closing file printed for the symbol that day, PKR; null without a file row",
    ),
  },
  {
    $id: 'MarketDailyBar',
    description: "one equity's raw daily bar (as traded) on the day asked, with its ex-marker",
  },
);

export const AdjustedMarketDailyBar = Type.Object(
  { symbol: Type.String(), ...AdjustedHistoricalRow.properties, marker: Marker, source: Source },
  {
    $id: 'AdjustedMarketDailyBar',
    description:
      "one equity's daily bar adjusted with the kept corporate-action factors (adjusted=true), with its ex-marker",
  },
);

export const ContractDailyRow = Type.Object(
  {
    symbol: Type.String({
      description: 'as the exchange prints it: HBL-NOV, HBL-CNOV, HBL-NOVB, KSE30-NOV, P05FRR…',
    }),
    date: Type.String({ format: 'date' }),
    sector_code: Type.String({ description: '0040 stock futures, 0041 index futures, 0036 government debt' }),
    name: Type.String(),
    marker: Marker,
    open: NullableNum('PKR; null where the file prints 0 (a contract that did not trade)'),
    high: NullableNum('PKR; null where the file prints 0'),
    low: NullableNum('PKR; null where the file prints 0'),
    close: NullableNum('PKR'),
    volume: Type.Union([Type.Integer(), Type.Null()], { description: 'contracts or units traded' }),
    ldcp: NullableNum('the previous close, PKR'),
    underlying: Type.Union([Type.String(), Type.Null()], {
      description: 'futures: the underlying symbol or index (HBL of HBL-NOV); null otherwise',
    }),
    contract_month: Type.Union([Type.String(), Type.Null()], {
      description: 'futures: the contract month, YYYY-MM; null otherwise',
    }),
    cash_settled: Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'futures: true for a cash-settled contract (HBL-CNOV), false for a deliverable one; null otherwise',
    }),
    series: Type.Union([Type.String(), Type.Null()], {
      description:
        "futures: the contract's series mark after the month as printed: 'B' for the B series (HBL-NOVB), e.g. 'N1' for LOTCHEM-CSEPN1; null for a plain contract",
    }),
  },
  {
    $id: 'ContractDailyRow',
    description: "a futures, index-futures or debt row of the exchange's closing file",
  },
);

export const UniverseRow = Type.Object(
  {
    symbol: Type.String(),
    name: Type.String({ description: 'as the closing file abbreviates it, the ex-marker removed' }),
    sector_code: Type.String({ description: '4-digit sector code' }),
    marker: Marker,
    listed_today: Type.Boolean({
      description: 'whether the exchange lists the symbol today (false: delisted since)',
    }),
  },
  { $id: 'UniverseRow', description: "an equity in the exchange's closing file of the day asked" },
);

export const FileDisagreementRow = Type.Object({
  symbol: Type.String(),
  date: Type.String({ format: 'date' }),
  field: Type.Union([
    Type.Literal('open'),
    Type.Literal('high'),
    Type.Literal('low'),
    Type.Literal('close'),
    Type.Literal('volume'),
  ]),
  file: Type.Union([Type.Number(), Type.Null()], { description: "the closing file's value" }),
  history: Type.Union([Type.Number(), Type.Null()], {
    description: "the portal history's value: the one the answers serve",
  }),
});

export const fileModelSchemas = [MarketDailyBar, AdjustedMarketDailyBar, ContractDailyRow, UniverseRow];

export type MarketDailyBarT = Static<typeof MarketDailyBar>;
export type AdjustedMarketDailyBarT = Static<typeof AdjustedMarketDailyBar>;
export type ContractDailyRowT = Static<typeof ContractDailyRow>;
export type UniverseRowT = Static<typeof UniverseRow>;
