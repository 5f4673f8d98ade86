// Portal-side shapes: what each portal page says, in the portal's own terms, after parsing.
// Numbers are raw (data-order where the portal provides it); a cell the portal leaves blank or
// shows as N/A is null. Nothing here knows about the service's JSON field names.

/** The portal pages the service reads. Used in logs, metrics and errors. */
export type PageKind =
  | 'token'
  | 'symbols'
  | 'screener'
  | 'market-watch'
  | 'index-constituents'
  | 'index-levels'
  | 'sector-summary'
  | 'history'
  | 'reports'
  | 'company'
  | 'eod'
  | 'payouts'
  | 'intraday'
  | 'index-series'
  | 'market-payouts'
  | 'calendar'
  | 'announcements'
  | 'debt-market'
  | 'trading-board'
  | 'eligible-scrips'
  | 'daily-file';

/** One item of `GET /symbols`. */
export interface PortalSymbol {
  symbol: string;
  name: string;
  sectorName: string;
  isETF: boolean;
  isDebt: boolean;
  isGEM: boolean;
}

/** One row of `GET /screener`. */
export interface ScreenerRow {
  symbol: string;
  /** Company name from the symbol link's data-title, when present. */
  name: string | null;
  /** 4-digit sector code such as `0813`. */
  sectorCode: string | null;
  /** Index codes from the LISTED IN cell (may be empty). */
  listedIn: readonly string[];
  marketCap: number | null;
  price: number | null;
  changePct: number | null;
  change1yPct: number | null;
  peRatio: number | null;
  dividendYield: number | null;
  freeFloat: number | null;
  volumeAvg30d: number | null;
}

/** One row of `GET /market-watch`. */
export interface MarketWatchRow {
  symbol: string;
  name: string | null;
  sectorCode: string | null;
  listedIn: readonly string[];
  ldcp: number | null;
  open: number | null;
  high: number | null;
  low: number | null;
  current: number | null;
  change: number | null;
  changePct: number | null;
  volume: number | null;
}

/** One row of `GET /indices/{NAME}`. The `(M)` columns are raw counts/rupees from data-order. */
export interface IndexConstituentRow {
  symbol: string;
  name: string | null;
  ldcp: number | null;
  current: number | null;
  change: number | null;
  changePct: number | null;
  /** Percentage number: `0.41` for a cell showing `0.41%`. */
  idxWeight: number | null;
  idxPoint: number | null;
  volume: number | null;
  /** Raw free-float share count (FREEFLOAT (M) column), when the index's table has it. */
  freeFloat?: number | null;
  /** Raw share count (SHARES (M) column), when the index's table has it. */
  shares?: number | null;
  /** Raw market capitalisation in rupees (MARKET CAP (M) column). */
  marketCap: number | null;
}

export interface IndexConstituentsPage {
  /** The `<h2>` title, e.g. `KSE 100 INDEX Constituents`. */
  title: string | null;
  /** Which size column the index's table carries. */
  sizeColumn: 'freefloat' | 'shares' | null;
  rows: readonly IndexConstituentRow[];
}

/** One row of the index-levels table of `GET /indices`. */
export interface IndexLevelRow {
  /** Index code, e.g. `KSE100`. */
  index: string;
  /** null where the portal shows N/A (a stale index). */
  high: number | null;
  low: number | null;
  current: number | null;
  change: number | null;
  changePct: number | null;
  /** For a stale index, the portal's `(29-09-2026 18:30:00)` stamp as ISO 8601 (+05:00). */
  staleSince: string | null;
}

export interface IndexLevelsPage {
  /** The page's `As of Sep 30, 2026 3:50 PM` line as ISO 8601 with +05:00, when present. */
  asOf: string | null;
  rows: readonly IndexLevelRow[];
}

/** One row of the first table of `GET /sector-summary/sectorwise`. */
export interface SectorSummaryRow {
  sectorCode: string;
  sectorName: string;
  advance: number | null;
  decline: number | null;
  unchanged: number | null;
  turnover: number | null;
  /** Billions of PKR, as the column header says. */
  marketCapB: number | null;
}

export interface SectorMembers {
  sectorCode: string;
  sectorName: string;
  symbols: readonly string[];
}

export interface SectorPage {
  sectors: readonly SectorSummaryRow[];
  /** One entry per `div.sectorSummary__companies__table`, in page order. */
  members: readonly SectorMembers[];
}

/** One row of `POST /historical`. */
export interface HistoryRow {
  /** Calendar date in Asia/Karachi, `YYYY-MM-DD`. */
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

/** One row of `GET /company/reports/{SYM}` (or the `/financial-reports-list` column set). */
export interface ReportRow {
  symbol: string | null;
  /** 4-digit year. */
  year: string;
  /** `Annual`, `Quarterly`, `Half Yearly`, … as the portal writes it. */
  type: string;
  /** `YYYY` for annual reports, `YYYY-MM-DD` otherwise, as the portal gives it. */
  periodEnded: string;
  /** `YYYY-MM-DD`. */
  postingDate: string;
  /** Absolute URL of the PDF. */
  document: string;
}

// ---- `GET /company/{SYM}` (parsers/company.ts) ----

/** The quote header above the charts. */
export interface CompanyQuote {
  name: string | null;
  sectorName: string | null;
  close: number | null;
  change: number | null;
  /** Percent: `1.31` for `(1.31%)`. */
  changePct: number | null;
  /** The `As of Wed, Sep 30, 2026 3:47 PM` line as ISO 8601 with +05:00. */
  asOf: string | null;
}

/** The regular market's stats panel (`div.tabs__panel[data-name="REG"]`). */
export interface CompanyStats {
  open: number | null;
  high: number | null;
  low: number | null;
  volume: number | null;
  circuitBreakerLow: number | null;
  circuitBreakerHigh: number | null;
  dayRangeLow: number | null;
  dayRangeHigh: number | null;
  week52Low: number | null;
  week52High: number | null;
  /** null where the page shows 0.00 (no order on that side). */
  askPrice: number | null;
  askVolume: number | null;
  bidPrice: number | null;
  bidVolume: number | null;
  ldcp: number | null;
  var: number | null;
  haircut: number | null;
  peRatio: number | null;
  change1yPct: number | null;
  ytdChangePct: number | null;
}

export interface KeyPerson {
  name: string;
  role: string | null;
}

export interface CompanyProfile {
  description: string | null;
  keyPeople: readonly KeyPerson[];
  address: string | null;
  website: string | null;
  registrar: string | null;
  auditor: string | null;
  /** A month name as the page writes it (`December`). */
  fiscalYearEnd: string | null;
}

export interface CompanyEquity {
  /** PKR (the page prints thousands: converted). */
  marketCap: number | null;
  shares: number | null;
  freeFloatShares: number | null;
  /** Percent: `40` for `40.00%`. */
  freeFloatPct: number | null;
}

export type AnnouncementCategory = 'financial-results' | 'board-meetings' | 'others';

export interface CompanyAnnouncement {
  category: AnnouncementCategory;
  /** `YYYY-MM-DD`. */
  date: string;
  title: string;
  /** Absolute URL of the PDF (or attachment) the row links, or null (some rows link only images). */
  documentUrl: string | null;
  /**
   * The page images the row's `View` link shows (`278158-1.gif`), as the portal names them. Absent
   * from a page stored (Redis, the disk store) before the field existed: read it as none.
   */
  images?: readonly string[];
}

/** One period column of a financials or ratios table. */
export interface FinancialPeriod {
  /** As the column header shows it: `2025`, `Q2 2026`. */
  period: string;
  /** By line key (`profit_after_taxation`, `eps`, `net_profit_margin_pct`): PKR, except EPS (PKR a share) and ratios. */
  lines: Record<string, number | null>;
}

export interface CompanyFinancials {
  annual: readonly FinancialPeriod[] | null;
  quarterly: readonly FinancialPeriod[] | null;
}

export type CompanySection =
  'quote' | 'stats' | 'profile' | 'equity' | 'announcements' | 'financials' | 'ratios';

/** A company page as parsed: each section null when the page lacks it or it no longer reads. */
export interface CompanyPage {
  quote: CompanyQuote | null;
  stats: CompanyStats | null;
  profile: CompanyProfile | null;
  equity: CompanyEquity | null;
  announcements: readonly CompanyAnnouncement[] | null;
  financials: CompanyFinancials | null;
  ratios: readonly FinancialPeriod[] | null;
  /** Why each null section is null (logged and counted by the dataset accessor). */
  missing: readonly { section: CompanySection; reason: string }[];
}

/** One row of `GET /timeseries/eod/{SYM}`: the portal's adjusted daily series. */
export interface EodRow {
  /** Calendar date in Asia/Karachi of the row's epoch, `YYYY-MM-DD`. */
  date: string;
  close: number;
  volume: number | null;
  open: number | null;
}

/** One entry of a payouts Details cell: `60%(i) (D)`, `10%(F) (B)`, `85% (R)`. */
export interface PayoutEntry {
  /** `(D)` cash dividend, `(B)` bonus shares, `(R)` right shares. */
  kind: 'dividend' | 'bonus' | 'right';
  /** Percent of face value (dividend) or of the shares held (bonus, right): `60` for `60%`. */
  percent: number;
  /** `i`, `ii`, `iii` (interim number) or `F` (final), as written; null when absent. */
  label: string | null;
}

/** One row of `POST /company/payouts`. */
export interface PayoutRow {
  /** The announcement time, ISO 8601 with +05:00 (`April 17, 2026 5:10 PM`); null when unreadable. */
  announced: string | null;
  /** End of the financial period the payout is for, `YYYY-MM-DD`; null when unreadable. */
  periodEnded: string | null;
  /** `IQ`, `HYR`, `IIIQ`, `YR`, … as written after the period date; null when absent. */
  periodCode: string | null;
  /** The Details cell's text (spaces collapsed). */
  details: string;
  /** What the Details cell says; empty when its shape is not understood. */
  entries: readonly PayoutEntry[];
  /** First and last day of the book closure, `YYYY-MM-DD`; null when the cell shows none. */
  bookClosureFrom: string | null;
  bookClosureTo: string | null;
}

/** One trade of `GET /timeseries/int/{SYM}`. */
export interface IntradayTick {
  /** Epoch seconds (a true instant). */
  epoch: number;
  price: number;
  volume: number;
}

/** Today's trades, oldest first; `known: false` when the portal does not know the code. */
export interface IntradaySeries {
  known: boolean;
  ticks: readonly IntradayTick[];
}

/** One day of `GET /timeseries/eod/{INDEX}`: the portal has no high or low. */
export interface IndexSeriesRow {
  /** Calendar date in Asia/Karachi, `YYYY-MM-DD`. */
  date: string;
  open: number | null;
  close: number;
  volume: number | null;
}

/** What a daily closing file's row is, by its sector code (40, 41, 36; the rest are equities). */
export type DailyFileKind = 'equity' | 'futures' | 'index_futures' | 'debt';

/** One line of a daily closing file (`closing11.lis`), as traded: never adjusted. */
export interface DailyFileRow {
  date: string;
  symbol: string;
  /** 4-digit sector code such as `0813`. */
  sectorCode: string;
  /** The name with its ex-marker taken off. */
  name: string;
  /** The ex-marker the name carried (`XD` ex-dividend, `XB` ex-bonus, `XR` ex-right), or null. */
  marker: 'XD' | 'XB' | 'XR' | null;
  /** null where the file prints 0 (a contract that did not trade). */
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  ldcp: number | null;
  kind: DailyFileKind;
  /** Futures only: the underlying symbol (`HBL` of `HBL-SEP`), the contract month `YYYY-MM`,
   *  whether it settles in cash (`HBL-CSEP`) and its series (`B` for `HBL-SEPB`, `N1` for
   *  `LOTCHEM-CSEPN1`). */
  underlying: string | null;
  contractMonth: string | null;
  cashSettled: boolean | null;
  series: string | null;
}

/** One day's closing file read. */
export interface DailyFile {
  date: string;
  rows: DailyFileRow[];
  /** Lines that did not read (at most 1 % of the file). */
  skipped: { line: number; reason: string }[];
}
