// The shape of the fake portal's market (dataset.ts builds it): its options, its instruments and the
// rows each board shows, in the portal-side types of src/exchange/types.ts where the portal has one.
// Kept apart so the page renderers and corporate-actions.ts can name the dataset without importing
// the code that builds it.
import type {
  HistoryRow,
  IndexConstituentsPage,
  IndexLevelsPage,
  MarketWatchRow,
  PortalSymbol,
  ReportRow,
  ScreenerRow,
  SectorPage,
} from '../../src/exchange/types.ts';

export interface DatasetOptions {
  /** PRNG seed; the default gives the documented values. */
  seed?: number;
  /** Adds N generated equities (codes `XAAA`, `XAAB`, …) for benchmarks. */
  extraSymbols?: number;
  /** Overrides the history length of every symbol that has a history (the debt instrument has none). */
  historyRows?: number;
  /**
   * The trading day the boards show, `YYYY-MM-DD` (a weekday; default AS_OF_DATE). Every symbol's
   * history ends on it (the day before for an untraded symbol): the prices are the same walk
   * whatever the day, only its dates move.
   */
  asOfDate?: string;
  /**
   * The Karachi time `HH:MM` of the boards' `As of …` line on that day; default five minutes after
   * the day's last close (15:35, Friday 16:35). The portal passes its clock's time during a session.
   */
  asOfTime?: string;
}

export type InstrumentKind = 'equity' | 'right' | 'etf' | 'debt';

export interface Instrument {
  symbol: string;
  /** The company name as the tables' data-title shows it. */
  name: string;
  /** The name as `/symbols` gives it (the portal truncates some). */
  listName: string;
  /** 4-digit code; null for the debt instrument, which has no sector page presence. */
  sectorCode: string | null;
  sectorName: string;
  kind: InstrumentKind;
  /** Status tags shown after the symbol link: XD, XB, XR, NC. */
  tags: readonly string[];
  /** Index codes the symbol belongs to, sorted as the LISTED IN cell shows them. */
  indices: readonly string[];
  onScreener: boolean;
  /** Traded today: on /market-watch, with a history row for the as-of date. */
  traded: boolean;
  shares: number;
  freeFloat: number;
  fiscalYearEndMonth: 6 | 12;
  hasReports: boolean;
  historyRows: number;
  /** Stable position (base symbols first, then extras): used for report ids. */
  ordinal: number;
}

/** Today's trading as the boards show it; for an untraded symbol, its last traded day. */
export interface DaySummary {
  date: string;
  ldcp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A row of a sector's member table (`div.sectorSummary__companies__table`). */
export interface SectorMemberRow {
  symbol: string;
  name: string;
  ldcp: number;
  open: number;
  high: number;
  low: number;
  current: number;
  change: number;
  changePct: number;
  volume: number;
  /** The portal marks rows `traded` or `zero` (no trade today). */
  traded: boolean;
}

export interface IndexInfo {
  code: string;
  /** The constituents page's `<h2>` reads `${title} Constituents`. */
  title: string;
  sizeColumn: 'freefloat' | 'shares';
  members: readonly string[];
  /** Last day's close of the index level. */
  ldcp: number;
}

export interface SectorDef {
  code: string;
  name: string;
}

export interface HistoryAnomalies {
  symbol: string;
  /** Bonus issue ex-date: the close drops by 1/bonusFactor, far beyond the price limit. */
  bonusExDate: string;
  bonusFactor: number;
  /** Zero volume, yet the price moved against the previous close. */
  zeroVolumeMoveDate: string;
  /** High is below the close. */
  ohlcInconsistentDate: string;
}

export interface Dataset {
  readonly options: Required<DatasetOptions>;
  /** The trading day every board shows, `YYYY-MM-DD` (AS_OF_DATE, a Friday, by default). */
  readonly asOfDate: string;
  /** The `/indices` page's `As of …` text. */
  readonly asOfLabel: string;
  readonly asOfIso: string;
  readonly sectors: readonly SectorDef[];
  /** All instruments sorted by symbol (code-unit order, so `786` comes first). */
  readonly instruments: readonly Instrument[];
  instrument(symbol: string): Instrument | undefined;
  day(symbol: string): DaySummary | undefined;
  /** `/symbols`, in page order. */
  readonly symbols: readonly PortalSymbol[];
  /** `/screener`, in page order (by symbol). */
  readonly screener: readonly ScreenerRow[];
  /** `/market-watch`, in page order (by volume, descending). */
  readonly marketWatch: readonly MarketWatchRow[];
  readonly indexCodes: readonly string[];
  indexInfo(code: string): IndexInfo | undefined;
  /** null for an index code the portal does not know. */
  indexConstituents(code: string): IndexConstituentsPage | null;
  readonly indexLevels: IndexLevelsPage;
  readonly sectorPage: SectorPage;
  sectorMemberRows(code: string): readonly SectorMemberRow[];
  /** Daily history, newest first; [] for an unknown symbol or one without history. */
  history(symbol: string): HistoryRow[];
  /** Financial reports, newest posting first; null for a symbol the portal does not know. */
  reports(symbol: string): ReportRow[] | null;
  readonly anomalies: HistoryAnomalies;
}
