// The fake portal's data: a small, fully deterministic market (seeded PRNG, fixed "today"), shaped
// like the portal-side rows of src/exchange/types.ts so tests can compare parser output with it.
// Everything is derived from (seed, symbol), so adding extra symbols never changes the base ones.
import type {
  HistoryRow,
  IndexConstituentRow,
  IndexConstituentsPage,
  IndexLevelRow,
  IndexLevelsPage,
  MarketWatchRow,
  PortalSymbol,
  ReportRow,
  ScreenerRow,
  SectorPage,
  SectorSummaryRow,
} from '../../src/exchange/types.ts';
import { closeBefore } from './corporate-actions.ts';
import { change1yPct, SCREENER_HISTORY_ROWS, volumeAvg30d } from './derived.ts';

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

export const AS_OF_DATE = '2026-11-20';
export const ENGRO_HISTORY_ROWS = 2162;
export const DEFAULT_SEED = 20261120;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Five minutes after the day's last close: 15:35 Monday to Thursday, 16:35 on Friday. */
export function defaultAsOfTime(date: string): string {
  return new Date(parseDay(date)).getUTCDay() === 5 ? '16:35' : '15:35';
}

/** The portal's `Nov 20, 2026 4:35 PM`. */
function asOfLabelOf(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  return `${MONTHS[m - 1]} ${d}, ${y} ${h12}:${String(mm).padStart(2, '0')} ${hh < 12 ? 'AM' : 'PM'}`;
}

export const HISTORY_ANOMALIES: HistoryAnomalies = {
  symbol: 'ENGRO',
  bonusExDate: '2025-06-16',
  bonusFactor: 1.25,
  zeroVolumeMoveDate: '2023-03-15',
  ohlcInconsistentDate: '2022-10-12',
};

/** HBLTTI is a treasury index the portal shows as stale: N/A high/low and a timestamp. */
export const STALE_INDEX = {
  code: 'HBLTTI',
  since: '2026-11-19T18:30:00+05:00',
  label: '19-11-2026 18:30:00',
};

export const PDF_BASE = 'https://financials.psx.com.pk/lib/DownloadPDF.php?id=';

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function rngFor(seed: number, key: string): Rng {
  return mulberry32(hashString(key) ^ seed);
}

function normal(rng: Rng): number {
  const u = Math.max(rng(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round4 = (x: number): number => Math.round(x * 10000) / 10000;
/** The portal's percentages carry float noise (`-2.2960000000000003`); this reproduces some. */
const noisyPct3 = (x: number): number => Math.round(x * 1000) * 0.001;

// ---------------------------------------------------------------------------------------------
// Calendar and market rules

const DAY_MS = 86_400_000;

function parseDay(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const calendarCache = new Map<string, string[]>();

/** `n` weekdays ending at `end` (inclusive), newest first. No holiday calendar exists as data. */
export function tradingDays(end: string, n: number): string[] {
  const key = `${end}:${n}`;
  const cached = calendarCache.get(key);
  if (cached) return cached;
  const out: string[] = [];
  let t = parseDay(end);
  while (out.length < n) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(formatDay(t));
    t -= DAY_MS;
  }
  calendarCache.set(key, out);
  return out;
}

/** Moves a weekend day to the following Monday (filings are posted on working days). */
function nextWorkingDay(ms: number): number {
  const wd = new Date(ms).getUTCDay();
  return wd === 6 ? ms + 2 * DAY_MS : wd === 0 ? ms + DAY_MS : ms;
}

/** The circuit-breaker fraction for a date, taking the lower bound while it stepped up. */
export function priceLimitFraction(date: string): number {
  if (date < '2020-03-20') return 0.05;
  if (date < '2024-05-27') return 0.075;
  if (date < '2024-06-10') return 0.08;
  if (date < '2024-06-24') return 0.085;
  if (date < '2024-07-08') return 0.09;
  if (date < '2024-07-22') return 0.095;
  return 0.1;
}

// ---------------------------------------------------------------------------------------------
// The base universe

export const SECTORS: readonly SectorDef[] = [
  { code: '0801', name: 'AUTOMOBILE ASSEMBLER' },
  { code: '0804', name: 'CEMENT' },
  { code: '0807', name: 'COMMERCIAL BANKS' },
  { code: '0809', name: 'FERTILIZER' },
  { code: '0813', name: 'INV. BANKS / INV. COS. / SECURITIES COS.' },
  // No members: the portal still lists the sector, with an empty member table.
  { code: '0814', name: 'JUTE' },
  { code: '0820', name: 'OIL & GAS EXPLORATION COMPANIES' },
  { code: '0821', name: 'OIL & GAS MARKETING COMPANIES' },
  { code: '0823', name: 'PHARMACEUTICALS' },
  { code: '0824', name: 'POWER GENERATION & DISTRIBUTION' },
  { code: '0828', name: 'TECHNOLOGY & COMMUNICATION' },
  { code: '0833', name: 'TRANSPORT' },
  { code: '0837', name: 'EXCHANGE TRADED FUNDS' },
];
const DEBT_SECTOR = 'BILLS AND BONDS';

interface BaseSpec {
  symbol: string;
  name: string;
  sector: string;
  price: number;
  sharesM: number;
  ff: number;
  fye?: 6 | 12;
  kind?: InstrumentKind;
  tags?: string[];
  listName?: string;
  /** Not traded today: on the screener and sector tables, not on the market watch. */
  untraded?: boolean;
  /** On the market watch but not the screener (as some ETFs are). */
  noScreener?: boolean;
  noReports?: boolean;
  /** Loss-making or fund: P/E and yield shown as 0. */
  noEarnings?: boolean;
  historyRows?: number;
}

// prettier-ignore
const BASE: readonly BaseSpec[] = [
  { symbol: 'AGTL', name: 'Al-Ghazi Tractors Limited', sector: '0801', price: 512.3, sharesM: 58, ff: 0.15, fye: 12 },
  { symbol: 'ATLH', name: 'Atlas Honda Limited', sector: '0801', price: 1612.4, sharesM: 124, ff: 0.25 },
  { symbol: 'HCAR', name: 'Honda Atlas Cars (Pakistan) Limited', sector: '0801', price: 318.75, sharesM: 143, ff: 0.25 },
  { symbol: 'INDU', name: 'Indus Motor Company Limited', sector: '0801', price: 2145.67, sharesM: 78.6, ff: 0.3 },
  { symbol: 'MTL', name: 'Millat Tractors Limited', sector: '0801', price: 612.05, sharesM: 201, ff: 0.35 },
  { symbol: 'PSMC', name: 'Pak Suzuki Motor Company Limited', sector: '0801', price: 402.1, sharesM: 82.3, ff: 0.27, fye: 12 },
  { symbol: 'CHCC', name: 'Cherat Cement Company Limited', sector: '0804', price: 298.4, sharesM: 194, ff: 0.4 },
  { symbol: 'DGKC', name: 'D.G. Khan Cement Company Limited', sector: '0804', price: 187.63, sharesM: 438, ff: 0.45 },
  { symbol: 'FCCL', name: 'Fauji Cement Company Limited', sector: '0804', price: 47.82, sharesM: 2453, ff: 0.35 },
  { symbol: 'KOHC', name: 'Kohat Cement Company Limited', sector: '0804', price: 112.55, sharesM: 980, ff: 0.2 },
  { symbol: 'LUCK', name: 'Lucky Cement Limited', sector: '0804', price: 1054.2, sharesM: 293, ff: 0.4 },
  { symbol: 'MLCF', name: 'Maple Leaf Cement Factory Limited', sector: '0804', price: 96.15, sharesM: 1047, ff: 0.45 },
  { symbol: 'PIOC', name: 'Pioneer Cement Limited', sector: '0804', price: 228.9, sharesM: 227, ff: 0.4 },
  { symbol: 'POWER', name: 'Power Cement Limited', sector: '0804', price: 14.36, sharesM: 1060, ff: 0.3, noEarnings: true },
  { symbol: 'ABL', name: 'Allied Bank Limited', sector: '0807', price: 171.22, sharesM: 1145, ff: 0.1, fye: 12 },
  { symbol: 'AKBL', name: 'Askari Bank Limited', sector: '0807', price: 52.48, sharesM: 1449, ff: 0.25, fye: 12 },
  { symbol: 'BAFL', name: 'Bank Alfalah Limited', sector: '0807', price: 88.7, sharesM: 1577, ff: 0.35, fye: 12 },
  { symbol: 'BAHL', name: 'Bank AL Habib Limited', sector: '0807', price: 165.35, sharesM: 1111, ff: 0.4, fye: 12 },
  { symbol: 'FABL', name: 'Faysal Bank Limited', sector: '0807', price: 71.44, sharesM: 1517, ff: 0.3, fye: 12 },
  { symbol: 'HBL', name: 'Habib Bank Limited', sector: '0807', price: 306.1, sharesM: 1467, ff: 0.4, fye: 12, tags: ['XD'] },
  { symbol: 'MCB', name: 'MCB Bank Limited', sector: '0807', price: 388.54, sharesM: 1185, ff: 0.35, fye: 12 },
  { symbol: 'MEBL', name: 'Meezan Bank Limited', sector: '0807', price: 452.8, sharesM: 1790, ff: 0.45, fye: 12 },
  { symbol: 'NBP', name: 'National Bank of Pakistan', sector: '0807', price: 178.25, sharesM: 2127, ff: 0.25, fye: 12 },
  { symbol: 'UBL', name: 'United Bank Limited', sector: '0807', price: 412.6, sharesM: 2505, ff: 0.4, fye: 12, tags: ['XB'] },
  { symbol: 'EFERT', name: 'Engro Fertilizers Limited', sector: '0809', price: 221.35, sharesM: 1335, ff: 0.44, fye: 12 },
  { symbol: 'ENGRO', name: 'Engro Corporation Limited', sector: '0809', price: 412.35, sharesM: 536.6, ff: 0.5, fye: 12, historyRows: ENGRO_HISTORY_ROWS },
  { symbol: 'FATIMA', name: 'Fatima Fertilizer Company Limited', sector: '0809', price: 147.38, sharesM: 2100, ff: 0.2, fye: 12 },
  { symbol: 'FFC', name: 'Fauji Fertilizer Company Limited', sector: '0809', price: 452.1, sharesM: 1423, ff: 0.55, fye: 12, tags: ['XD'] },
  // Digits first, with an open rights issue: the XR tag and the rights symbol 786R.
  { symbol: '786', name: '786 Investments Limited', sector: '0813', price: 44.69, sharesM: 19.96, ff: 0.26, tags: ['XR'] },
  { symbol: '786R', name: '786 Investment (Right)', sector: '0813', price: 2.47, sharesM: 4.99, ff: 1, kind: 'right', noReports: true, noEarnings: true, historyRows: 12 },
  { symbol: 'AHCL', name: 'Arif Habib Corporation Limited', sector: '0813', price: 16.17, sharesM: 458, ff: 0.3 },
  { symbol: 'AHL', name: 'Arif Habib Limited', sector: '0813', price: 118.4, sharesM: 65.3, ff: 0.35 },
  { symbol: 'JSCL', name: 'Jahangir Siddiqui & Co. Ltd.', sector: '0813', price: 21.85, sharesM: 916, ff: 0.45, fye: 12 },
  { symbol: 'MARI', name: 'Mari Energies Limited', sector: '0820', price: 628.35, sharesM: 1200, ff: 0.2 },
  { symbol: 'OGDC', name: 'Oil & Gas Development Company Limited', sector: '0820', price: 272.9, sharesM: 4301, ff: 0.15 },
  { symbol: 'POL', name: 'Pakistan Oilfields Limited', sector: '0820', price: 618.4, sharesM: 284, ff: 0.4 },
  { symbol: 'PPL', name: 'Pakistan Petroleum Limited', sector: '0820', price: 182.65, sharesM: 2721, ff: 0.25 },
  { symbol: 'APL', name: 'Attock Petroleum Limited', sector: '0821', price: 622.1, sharesM: 124, ff: 0.3 },
  { symbol: 'HASCOL', name: 'Hascol Petroleum Limited', sector: '0821', price: 9.87, sharesM: 1000, ff: 0.5, fye: 12, tags: ['NC'], noEarnings: true },
  { symbol: 'PSO', name: 'Pakistan State Oil Company Limited', sector: '0821', price: 432.15, sharesM: 469, ff: 0.4 },
  { symbol: 'SNGP', name: 'Sui Northern Gas Pipelines Limited', sector: '0821', price: 118.9, sharesM: 634, ff: 0.35 },
  { symbol: 'SSGC', name: 'Sui Southern Gas Company Limited', sector: '0821', price: 36.42, sharesM: 881, ff: 0.3 },
  { symbol: 'ABOT', name: 'Abbott Laboratories (Pakistan) Limited', sector: '0823', price: 915.16, sharesM: 97.9, ff: 0.22, fye: 12 },
  { symbol: 'AGP', name: 'AGP Limited', sector: '0823', price: 152.8, sharesM: 280, ff: 0.3, fye: 12 },
  { symbol: 'FEROZ', name: 'Ferozsons Laboratories Limited', sector: '0823', price: 318, sharesM: 43.5, ff: 0.35, untraded: true },
  { symbol: 'GLAXO', name: 'GlaxoSmithKline Pakistan Limited', sector: '0823', price: 382.45, sharesM: 318, ff: 0.18, fye: 12 },
  { symbol: 'HALEON', name: 'Haleon Pakistan Limited', sector: '0823', price: 712.3, sharesM: 117, ff: 0.15, fye: 12 },
  { symbol: 'SEARL', name: 'The Searle Company Limited', sector: '0823', price: 79.94, sharesM: 512, ff: 0.25 },
  { symbol: 'HUBC', name: 'The Hub Power Company Limited', sector: '0824', price: 162.45, sharesM: 1297, ff: 0.65 },
  { symbol: 'KAPCO', name: 'Kot Addu Power Company Limited', sector: '0824', price: 32.1, sharesM: 880, ff: 0.2, untraded: true },
  { symbol: 'KEL', name: 'K-Electric Limited', sector: '0824', price: 5.62, sharesM: 27614, ff: 0.25, noEarnings: true },
  { symbol: 'NPL', name: 'Nishat Power Limited', sector: '0824', price: 41.75, sharesM: 354, ff: 0.45 },
  { symbol: 'AIRLINK', name: 'Air Link Communication Limited', sector: '0828', price: 120.94, sharesM: 395, ff: 0.3 },
  { symbol: 'NETSOL', name: 'NetSol Technologies Limited', sector: '0828', price: 142.3, sharesM: 89.9, ff: 0.33 },
  { symbol: 'PTC', name: 'Pakistan Telecommunication Company Limited', sector: '0828', price: 38.65, sharesM: 5100, ff: 0.12, fye: 12 },
  { symbol: 'SYS', name: 'Systems Limited', sector: '0828', price: 452.75, sharesM: 292, ff: 0.45, fye: 12 },
  { symbol: 'TRG', name: 'TRG Pakistan Limited', sector: '0828', price: 68.9, sharesM: 545, ff: 0.6, fye: 12 },
  // Penny stock with no financial reports at all.
  { symbol: 'WTL', name: 'Worldcall Telecom Limited', sector: '0828', price: 1.01, sharesM: 5486, ff: 0.5, fye: 12, noReports: true, noEarnings: true },
  { symbol: 'PIAHCLA', name: 'PIA Holding Company Limited(A)', sector: '0833', price: 21.4, sharesM: 5230, ff: 0.05, fye: 12, untraded: true, noEarnings: true },
  { symbol: 'PIBTL', name: 'Pakistan International Bulk Terminal Limited', sector: '0833', price: 14.68, sharesM: 1786, ff: 0.4 },
  { symbol: 'PNSC', name: 'Pakistan National Shipping Corporation', sector: '0833', price: 412.75, sharesM: 132, ff: 0.1 },
  { symbol: 'MZNPETF', name: 'Meezan Pakistan ETF', sector: '0837', price: 19.45, sharesM: 40, ff: 1, kind: 'etf', noReports: true, noEarnings: true },
  { symbol: 'NBPGETF', name: 'NBP Pakistan Growth ETF', sector: '0837', price: 17.82, sharesM: 25, ff: 1, kind: 'etf', noScreener: true, noReports: true, noEarnings: true },
  { symbol: 'UBLP-ETF', name: 'UBL Pakistan Enterprise ETF', sector: '0837', price: 22.36, sharesM: 30, ff: 1, kind: 'etf', noScreener: true, noReports: true, noEarnings: true },
  // Debt: only on /symbols, with the portal's truncated names and no isGEM field.
  { symbol: 'BAFLTFC8', name: 'Bank Alfalah Limited (TFC8)', listName: 'Bank Alfalah(TFC8', sector: '', price: 100, sharesM: 0, ff: 0, kind: 'debt', noScreener: true, noReports: true },
  { symbol: 'HBLTFC3', name: 'Habib Bank Limited (TFC3)', listName: 'Habib Bank(TFC3)', sector: '', price: 100, sharesM: 0, ff: 0, kind: 'debt', noScreener: true, noReports: true },
];

// Index membership (explicit lists; ALLSHR and KMIALLSHR are computed).
// prettier-ignore
const KSE100 = [
  'ATLH', 'HCAR', 'INDU', 'MTL', 'PSMC', 'CHCC', 'DGKC', 'FCCL', 'KOHC', 'LUCK', 'MLCF', 'PIOC', 'ABL', 'AKBL',
  'BAFL', 'BAHL', 'FABL', 'HBL', 'MCB', 'MEBL', 'NBP', 'UBL', 'EFERT', 'ENGRO', 'FATIMA', 'FFC', 'AHCL', 'MARI',
  'OGDC', 'POL', 'PPL', 'APL', 'PSO', 'SNGP', 'SSGC', 'ABOT', 'AGP', 'GLAXO', 'HALEON', 'SEARL', 'HUBC', 'KEL',
  'NPL', 'AIRLINK', 'PTC', 'SYS', 'TRG', 'PIBTL', 'PNSC',
];
// prettier-ignore
const KSE30 = [
  'LUCK', 'MLCF', 'FCCL', 'DGKC', 'HBL', 'UBL', 'MCB', 'MEBL', 'BAFL', 'NBP', 'ENGRO', 'EFERT', 'FFC', 'FATIMA',
  'OGDC', 'PPL', 'MARI', 'POL', 'PSO', 'SNGP', 'HUBC', 'SYS', 'TRG', 'SEARL', 'AIRLINK', 'PIBTL', 'KEL', 'INDU',
  'PSMC', 'BAHL',
];
// prettier-ignore
const KMI30 = [
  'LUCK', 'MLCF', 'FCCL', 'DGKC', 'CHCC', 'KOHC', 'MEBL', 'ENGRO', 'EFERT', 'FATIMA', 'FFC', 'OGDC', 'PPL', 'MARI',
  'POL', 'PSO', 'SNGP', 'APL', 'HUBC', 'SYS', 'AIRLINK', 'SEARL', 'AGP', 'HALEON', 'INDU', 'HCAR', 'ATLH', 'PIBTL',
  'PNSC', 'NPL',
];
const KMIALL_EXTRA = [
  'MTL',
  'PIOC',
  'POWER',
  'AGTL',
  'PSMC',
  'ABOT',
  'GLAXO',
  'FEROZ',
  'NETSOL',
  'KAPCO',
  'SSGC',
  'AHL',
];
const MII30 = [...KMI30.filter((s) => !['NPL', 'PNSC', 'HCAR'].includes(s)), 'PIOC', 'GLAXO', 'ABOT'];
const BANKS = ['HBL', 'UBL', 'MCB', 'MEBL', 'BAFL', 'NBP', 'BAHL', 'ABL'];
const OIL = ['OGDC', 'PPL', 'MARI', 'POL'];
// prettier-ignore
const PSXDIV20 = [
  'HBL', 'UBL', 'MCB', 'MEBL', 'BAFL', 'BAHL', 'ABL', 'FFC', 'EFERT', 'ENGRO', 'OGDC', 'PPL', 'POL', 'MARI', 'HUBC',
  'LUCK', 'SYS', 'APL', 'FATIMA', 'AHCL',
];
const UPP9 = ['HBL', 'UBL', 'MCB', 'ENGRO', 'FFC', 'OGDC', 'PPL', 'LUCK', 'HUBC'];
// prettier-ignore
const NITPGI = ['HBL', 'UBL', 'MCB', 'MEBL', 'ENGRO', 'EFERT', 'FFC', 'OGDC', 'PPL', 'MARI', 'LUCK', 'HUBC', 'SYS', 'PSO'];
const MZNPI = ['MEBL', 'ENGRO', 'EFERT', 'FFC', 'OGDC', 'PPL', 'MARI', 'LUCK', 'HUBC', 'SYS', 'PSO', 'SEARL'];
const JSMFI = ['AIRLINK', 'TRG', 'KEL', 'PIBTL', 'FCCL', 'MLCF', 'NBP', 'FABL', 'AKBL', 'SSGC'];
// prettier-ignore
const ACI = [
  'INDU', 'HCAR', 'PSMC', 'ATLH', 'MTL', 'AGTL', 'ABOT', 'AGP', 'GLAXO', 'HALEON', 'SEARL', 'FEROZ', 'PTC', 'AIRLINK',
  'NETSOL', 'PSO', 'APL', 'SNGP', 'SSGC', 'HASCOL',
];

interface IndexDef {
  code: string;
  title: string;
  ldcp: number;
  sizeColumn: 'freefloat' | 'shares';
  /** Explicit members, or 'all' (every equity) / 'kmiall' (KMI30 plus more, and a third of extras). */
  members: readonly string[] | 'all' | 'kmiall';
}

// Order as on the portal's /indices page. The all-share indices carry SHARES (M), the others FREEFLOAT (M).
// prettier-ignore
const INDEX_DEFS: readonly IndexDef[] = [
  { code: 'KSE100', title: 'KSE 100 INDEX', ldcp: 168950.42, sizeColumn: 'freefloat', members: KSE100 },
  { code: 'KSE100PR', title: 'KSE 100 PRICE RETURN INDEX', ldcp: 50987.31, sizeColumn: 'freefloat', members: KSE100 },
  { code: 'ALLSHR', title: 'KSE ALL SHARE INDEX', ldcp: 102311.67, sizeColumn: 'shares', members: 'all' },
  { code: 'KSE30', title: 'KSE 30 INDEX', ldcp: 50211.08, sizeColumn: 'freefloat', members: KSE30 },
  { code: 'KMI30', title: 'KMI 30 INDEX', ldcp: 241876.44, sizeColumn: 'freefloat', members: KMI30 },
  { code: 'BKTI', title: 'BANKING TRADABLE INDEX', ldcp: 46902.18, sizeColumn: 'freefloat', members: BANKS },
  { code: 'OGTI', title: 'OIL & GAS TRADABLE INDEX', ldcp: 34655.92, sizeColumn: 'freefloat', members: OIL },
  { code: 'KMIALLSHR', title: 'KMI ALL SHARE ISLAMIC INDEX', ldcp: 66402.55, sizeColumn: 'shares', members: 'kmiall' },
  { code: 'PSXDIV20', title: 'PSX DIVIDEND 20 INDEX', ldcp: 61234.8, sizeColumn: 'freefloat', members: PSXDIV20 },
  { code: 'UPP9', title: 'UBL PAKISTAN ENTERPRISE INDEX', ldcp: 28412.66, sizeColumn: 'freefloat', members: UPP9 },
  { code: 'NITPGI', title: 'NIT PAKISTAN GATEWAY INDEX', ldcp: 35120.07, sizeColumn: 'freefloat', members: NITPGI },
  { code: 'NBPPGI', title: 'NBP PAKISTAN GROWTH INDEX', ldcp: 33987.21, sizeColumn: 'freefloat', members: [...NITPGI, 'TRG'] },
  { code: 'MZNPI', title: 'MEEZAN PAKISTAN INDEX', ldcp: 24750.39, sizeColumn: 'freefloat', members: MZNPI },
  { code: 'JSMFI', title: 'JS MOMENTUM FACTOR INDEX', ldcp: 18432.95, sizeColumn: 'freefloat', members: JSMFI },
  { code: 'ACI', title: 'ALFALAH CONSUMER INDEX', ldcp: 27895.14, sizeColumn: 'freefloat', members: ACI },
  { code: 'JSGBKTI', title: 'JS GLOBAL BANKING SECTOR TRADABLE INDEX', ldcp: 71114.23, sizeColumn: 'freefloat', members: BANKS },
  // A treasury-bill index: no equity constituents, and stale on the levels page.
  { code: 'HBLTTI', title: 'HBL TOTAL TREASURY INDEX', ldcp: 19093.18, sizeColumn: 'freefloat', members: [] },
  { code: 'MII30', title: 'MAHANA ISLAMIC INDEX', ldcp: 21944.94, sizeColumn: 'freefloat', members: MII30 },
];
const STALE_INDEX_CURRENT = 19097.05;

export const INDEX_CODES: readonly string[] = INDEX_DEFS.map((d) => d.code);

// ---------------------------------------------------------------------------------------------
// Extra (generated) symbols

// prettier-ignore
const EXTRA_FIRST = [
  'Crescent', 'Indus', 'Karakoram', 'Margalla', 'Ravi', 'Sutlej', 'Chenab', 'Jhelum', 'Thar', 'Bolan', 'Khyber',
  'Hunza', 'Swat', 'Kaghan', 'Makran', 'Potohar',
];
// prettier-ignore
const EXTRA_SECOND = [
  'Textile Mills', 'Industries', 'Energy', 'Foods', 'Chemicals', 'Holdings', 'Power', 'Steel', 'Paper & Board',
  'Pharma', 'Cement', 'Motors',
];
const EXTRA_SECTORS = SECTORS.filter((s) => s.code !== '0814' && s.code !== '0837').map((s) => s.code);

function extraCode(i: number): string {
  const a = String.fromCharCode(65 + (Math.floor(i / 676) % 26));
  const b = String.fromCharCode(65 + (Math.floor(i / 26) % 26));
  const c = String.fromCharCode(65 + (i % 26));
  return `X${a}${b}${c}`;
}

function extraSpec(i: number, seed: number): BaseSpec {
  const symbol = extraCode(i);
  const rng = rngFor(seed, `extra:${symbol}`);
  const first = EXTRA_FIRST[i % EXTRA_FIRST.length] as string;
  const second = EXTRA_SECOND[Math.floor(i / EXTRA_FIRST.length) % EXTRA_SECOND.length] as string;
  return {
    symbol,
    name: `${first} ${second} ${String(i + 1).padStart(4, '0')} Limited`,
    sector: EXTRA_SECTORS[i % EXTRA_SECTORS.length] as string,
    price: round2(5 + rng() * rng() * 900),
    sharesM: round2(20 + rng() * 900),
    ff: round2(0.1 + rng() * 0.5),
    fye: i % 3 === 0 ? 12 : 6,
    tags: i % 50 === 7 ? ['XD'] : undefined,
    untraded: i % 10 === 9,
  };
}

// ---------------------------------------------------------------------------------------------
// History (generated backwards from today, so today's rows never depend on the history's length)

interface PriceModel {
  anchor: number;
  sigma: number;
  baseVolume: number;
}

function priceModel(seed: number, symbol: string, price: number): PriceModel {
  const rng = rngFor(seed, `model:${symbol}`);
  return {
    anchor: price,
    sigma: 0.012 + rng() * 0.012,
    baseVolume: Math.round(Math.exp(11 + rng() * 4.5)),
  };
}

export function generateHistory(
  seed: number,
  symbol: string,
  model: PriceModel,
  endDate: string,
  rows: number,
): HistoryRow[] {
  const rng = rngFor(seed, `history:${symbol}`);
  const dates = tradingDays(endDate, rows);
  const anomalies = symbol === HISTORY_ANOMALIES.symbol ? HISTORY_ANOMALIES : null;
  const out: HistoryRow[] = [];
  let close = model.anchor;
  for (const date of dates) {
    const p = priceLimitFraction(date);
    const m = 0.9 * p;
    // Pull back towards the anchor so a long walk stays in a plausible range.
    let r = model.sigma * normal(rng) + 0.02 * Math.log(close / model.anchor);
    r = Math.max(-m, Math.min(m, r));
    const zeroVolume = anomalies?.zeroVolumeMoveDate === date;
    if (zeroVolume) r = 0.02;
    let ref = round2(close / (1 + r));
    if (ref < 0.5) ref = round2(close * (1 + m / 2));
    const open = round2(ref * (1 + (rng() - 0.5) * m));
    const top = Math.max(open, close);
    const bottom = Math.min(open, close);
    const upLimit = Math.floor(ref * (1 + p) * 100) / 100;
    const downLimit = Math.ceil(ref * (1 - p) * 100) / 100;
    let high = round2(top + rng() * Math.max(0, upLimit - top) * 0.3);
    let low = round2(bottom - rng() * Math.max(0, bottom - downLimit) * 0.3);
    let rowOpen = open;
    let volume = Math.max(1, Math.round(model.baseVolume * Math.exp(0.6 * normal(rng))));
    if (zeroVolume) {
      // A print without volume: every price equals the close, which still differs from the LDCP.
      volume = 0;
      rowOpen = close;
      high = close;
      low = close;
    }
    if (anomalies?.ohlcInconsistentDate === date) {
      high = round2(close * 0.99);
      rowOpen = Math.min(rowOpen, high);
      low = Math.min(low, round2(high * 0.99));
    }
    out.push({ date, open: rowOpen, high, low, close, volume });
    // Unadjusted prices: before the bonus ex-date the stock traded bonusFactor times higher.
    // Other planted corporate actions (and the misleading crash): corporate-actions.ts.
    close =
      anomalies?.bonusExDate === date ? round2(ref * anomalies.bonusFactor) : closeBefore(symbol, date, ref);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reports

function generateReports(seed: number, inst: Instrument, asOfDate: string): ReportRow[] {
  const rng = rngFor(seed, `reports:${inst.symbol}`);
  const fye = inst.fiscalYearEndMonth;
  const asOf = parseDay(asOfDate);
  const rows: { row: ReportRow; posted: number }[] = [];
  // Walk quarter ends backwards (Sep 2026, Jun 2026, …) over three fiscal years.
  let year = 2026;
  let month = 9;
  for (let q = 0; q < 14; q++, month -= 3) {
    if (month <= 0) {
      month += 12;
      year -= 1;
    }
    const periodEnd = Date.UTC(year, month, 0);
    const monthsIntoFy = (((month - fye) % 12) + 12) % 12;
    const type = monthsIntoFy === 0 ? 'Annual' : monthsIntoFy === 6 ? 'Half Yearly' : 'Quarterly';
    const delayDays =
      type === 'Annual'
        ? 70 + Math.floor(rng() * 25)
        : type === 'Half Yearly'
          ? 45 + Math.floor(rng() * 14)
          : 22 + Math.floor(rng() * 8);
    const posted = nextWorkingDay(periodEnd + delayDays * DAY_MS);
    if (posted > asOf) continue;
    const periodIso = formatDay(periodEnd);
    rows.push({
      posted,
      row: {
        symbol: inst.symbol,
        year: periodIso.slice(0, 4),
        type,
        periodEnded: type === 'Annual' ? periodIso.slice(0, 4) : periodIso,
        postingDate: formatDay(posted),
        document: `${PDF_BASE}${200000 + inst.ordinal * 40 + q}`,
      },
    });
  }
  rows.sort((a, b) => b.posted - a.posted);
  return rows.map((r) => r.row);
}

// ---------------------------------------------------------------------------------------------
// Assembly

function changeDir(ldcp: number, current: number): { change: number; changePct: number } {
  const change = round2(current - ldcp);
  return { change, changePct: ldcp === 0 ? 0 : noisyPct3((change / ldcp) * 100) };
}

function buildDataset(options: Required<DatasetOptions>): Dataset {
  const { seed, asOfDate, asOfTime } = options;
  /** Untraded symbols last traded the trading day before. */
  const previousTradingDay = tradingDays(asOfDate, 2)[1] as string;
  const asOfIso = `${asOfDate}T${asOfTime}:00+05:00`;
  const specs: BaseSpec[] = [...BASE];
  for (let i = 0; i < options.extraSymbols; i++) specs.push(extraSpec(i, seed));

  const sectorName = new Map(SECTORS.map((s) => [s.code, s.name]));
  const kmiAll = new Set([...KMI30, ...KMIALL_EXTRA]);
  const memberSets = new Map<string, Set<string>>();
  for (const def of INDEX_DEFS) {
    if (def.members === 'all') {
      memberSets.set(
        def.code,
        new Set(specs.filter((s) => (s.kind ?? 'equity') === 'equity').map((s) => s.symbol)),
      );
    } else if (def.members === 'kmiall') {
      const extra = specs
        .filter((s, i) => i >= BASE.length && (i - BASE.length) % 3 === 0)
        .map((s) => s.symbol);
      memberSets.set(def.code, new Set([...kmiAll, ...extra]));
    } else {
      memberSets.set(def.code, new Set(def.members));
    }
  }

  const models = new Map<string, PriceModel>();
  const days = new Map<string, DaySummary>();
  const instruments: Instrument[] = specs.map((s, ordinal) => {
    const kind = s.kind ?? 'equity';
    const indices = INDEX_DEFS.filter((d) => memberSets.get(d.code)?.has(s.symbol)).map((d) => d.code);
    indices.sort();
    const defaultRows = s.historyRows ?? 250 + (hashString(`${seed}:${s.symbol}`) % 1750);
    const shares = Math.round(s.sharesM * 1e6);
    return {
      symbol: s.symbol,
      name: s.name,
      listName: s.listName ?? s.name,
      sectorCode: kind === 'debt' ? null : s.sector,
      sectorName: kind === 'debt' ? DEBT_SECTOR : (sectorName.get(s.sector) ?? ''),
      kind,
      tags: s.tags ?? [],
      indices,
      onScreener: !s.noScreener && kind !== 'debt',
      traded: !s.untraded && kind !== 'debt',
      shares,
      freeFloat: Math.round(shares * s.ff),
      fiscalYearEndMonth: s.fye ?? 6,
      hasReports: !s.noReports && kind !== 'debt',
      historyRows: kind === 'debt' ? 0 : options.historyRows > 0 ? options.historyRows : defaultRows,
      ordinal,
    };
  });
  instruments.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  const bySymbol = new Map(instruments.map((i) => [i.symbol, i]));
  const specBySymbol = new Map(specs.map((s) => [s.symbol, s]));

  for (const inst of instruments) {
    if (inst.kind === 'debt') continue;
    const spec = specBySymbol.get(inst.symbol) as BaseSpec;
    const model = priceModel(seed, inst.symbol, spec.price);
    models.set(inst.symbol, model);
    const end = inst.traded ? asOfDate : previousTradingDay;
    const [today, yesterday] = generateHistory(seed, inst.symbol, model, end, 2);
    if (!today || !yesterday) continue;
    days.set(inst.symbol, {
      date: today.date,
      ldcp: yesterday.close as number,
      open: today.open as number,
      high: today.high as number,
      low: today.low as number,
      close: today.close as number,
      volume: today.volume as number,
    });
  }

  const listedIn = (inst: Instrument): string[] => inst.indices.filter((c) => c !== STALE_INDEX.code);

  // /symbols: debt first, as the portal lists it, then by symbol.
  const symbols: PortalSymbol[] = [...instruments]
    .sort((a, b) => Number(b.kind === 'debt') - Number(a.kind === 'debt'))
    .map((i) => ({
      symbol: i.symbol,
      name: i.listName,
      sectorName: i.sectorName,
      isETF: i.kind === 'etf',
      isDebt: i.kind === 'debt',
      isGEM: false,
    }));

  const screener: ScreenerRow[] = [];
  for (const inst of instruments) {
    const day = days.get(inst.symbol);
    if (!inst.onScreener || !day) continue;
    const spec = specBySymbol.get(inst.symbol) as BaseSpec;
    const rng = rngFor(seed, `screener:${inst.symbol}`);
    const price = day.close;
    const changePct = inst.traded ? changeDir(day.ldcp, day.close).changePct : 0;
    // The figures a client can check against /historical come from the history itself.
    const recent = generateHistory(
      seed,
      inst.symbol,
      models.get(inst.symbol) as PriceModel,
      day.date,
      Math.min(inst.historyRows, SCREENER_HISTORY_ROWS),
    );
    rng(); // the draw that once made the 1-year change, so the later draws keep their values
    const eps = round2(price / (3 + rng() * 22));
    const dps = round2(price * rng() * 0.12);
    screener.push({
      symbol: inst.symbol,
      name: inst.name,
      sectorCode: inst.sectorCode,
      listedIn: listedIn(inst),
      marketCap: inst.shares * price,
      price,
      changePct,
      change1yPct: change1yPct(recent),
      peRatio: spec.noEarnings ? 0 : price / eps,
      dividendYield: spec.noEarnings || rng() < 0.25 ? 0 : (dps / price) * 100,
      freeFloat: inst.freeFloat,
      volumeAvg30d: volumeAvg30d(recent),
    });
  }

  const marketWatch: MarketWatchRow[] = [];
  for (const inst of instruments) {
    const day = days.get(inst.symbol);
    if (!inst.traded || !day) continue;
    marketWatch.push({
      symbol: inst.symbol,
      name: inst.name,
      sectorCode: inst.sectorCode,
      listedIn: listedIn(inst),
      ldcp: day.ldcp,
      open: day.open,
      high: day.high,
      low: day.low,
      current: day.close,
      ...changeDir(day.ldcp, day.close),
      volume: day.volume,
    });
  }
  marketWatch.sort((a, b) => (b.volume as number) - (a.volume as number) || (a.symbol < b.symbol ? -1 : 1));

  // Index constituents and levels.
  const indexInfos = new Map<string, IndexInfo>();
  const constituents = new Map<string, IndexConstituentsPage>();
  const levelRows: IndexLevelRow[] = [];
  for (const def of INDEX_DEFS) {
    const members = instruments.filter((i) => memberSets.get(def.code)?.has(i.symbol) && days.has(i.symbol));
    const info: IndexInfo = {
      code: def.code,
      title: def.title,
      sizeColumn: def.sizeColumn,
      members: members.map((m) => m.symbol),
      ldcp: def.ldcp,
    };
    indexInfos.set(def.code, info);
    const size = (i: Instrument): number => (def.sizeColumn === 'shares' ? i.shares : i.freeFloat);
    // Untraded members show CURRENT 0 (and so a zero market cap) on index pages, as the portal does.
    const current = (i: Instrument): number => (i.traded ? (days.get(i.symbol) as DaySummary).close : 0);
    const capLdcp = members.reduce((sum, i) => sum + size(i) * (days.get(i.symbol) as DaySummary).ldcp, 0);
    const capNow = members.reduce((sum, i) => sum + size(i) * current(i), 0);
    let points = 0;
    const rows: IndexConstituentRow[] = members.map((i) => {
      const day = days.get(i.symbol) as DaySummary;
      const cur = current(i);
      const { change, changePct } = i.traded ? changeDir(day.ldcp, cur) : { change: 0, changePct: 0 };
      const weightLdcp = capLdcp > 0 ? (size(i) * day.ldcp) / capLdcp : 0;
      const idxPoint = i.traded ? round4((def.ldcp * weightLdcp * (cur - day.ldcp)) / day.ldcp) : 0;
      points += idxPoint;
      const row: IndexConstituentRow = {
        symbol: i.symbol,
        name: i.name,
        ldcp: day.ldcp,
        current: cur,
        change,
        changePct,
        idxWeight: Number((capNow > 0 ? ((size(i) * cur) / capNow) * 100 : 0).toFixed(2)),
        idxPoint,
        volume: i.traded ? day.volume : 0,
        marketCap: size(i) * cur,
      };
      if (def.sizeColumn === 'shares') row.shares = size(i);
      else row.freeFloat = size(i);
      return row;
    });
    constituents.set(def.code, { title: `${def.title} Constituents`, sizeColumn: def.sizeColumn, rows });

    const rng = rngFor(seed, `index:${def.code}`);
    if (def.code === STALE_INDEX.code) {
      const change = STALE_INDEX_CURRENT - def.ldcp;
      levelRows.push({
        index: def.code,
        high: null,
        low: null,
        current: STALE_INDEX_CURRENT,
        change,
        changePct: (change / def.ldcp) * 100,
        staleSince: STALE_INDEX.since,
      });
      continue;
    }
    const cur = round2(def.ldcp + points);
    const change = cur - def.ldcp;
    levelRows.push({
      index: def.code,
      high: round2(Math.max(cur, def.ldcp) * (1 + rng() * 0.004)),
      low: round2(Math.min(cur, def.ldcp) * (1 - rng() * 0.004)),
      current: cur,
      change,
      changePct: (change / def.ldcp) * 100,
      staleSince: null,
    });
  }

  // Sector summary, consistent with the member tables.
  const memberRows = new Map<string, SectorMemberRow[]>();
  const summary: SectorSummaryRow[] = [];
  for (const sector of SECTORS) {
    const rows: SectorMemberRow[] = [];
    let marketCap = 0;
    for (const inst of instruments) {
      const day = days.get(inst.symbol);
      if (inst.sectorCode !== sector.code || !day) continue;
      marketCap += inst.shares * day.close;
      if (inst.traded) {
        rows.push({
          symbol: inst.symbol,
          name: inst.name,
          ldcp: day.ldcp,
          open: day.open,
          high: day.high,
          low: day.low,
          current: day.close,
          ...changeDir(day.ldcp, day.close),
          volume: day.volume,
          traded: true,
        });
      } else {
        // A `zero` row: last day's prices, the close repeated as LDCP and CURRENT, no change.
        rows.push({
          symbol: inst.symbol,
          name: inst.name,
          ldcp: day.close,
          open: day.open,
          high: day.high,
          low: day.low,
          current: day.close,
          change: 0,
          changePct: 0,
          volume: 0,
          traded: false,
        });
      }
    }
    memberRows.set(sector.code, rows);
    summary.push({
      sectorCode: sector.code,
      sectorName: sector.name,
      advance: rows.filter((r) => r.change > 0).length,
      decline: rows.filter((r) => r.change < 0).length,
      unchanged: rows.filter((r) => r.change === 0).length,
      turnover: rows.reduce((sum, r) => sum + r.volume, 0),
      marketCapB: round2(marketCap / 1e9),
    });
  }
  const sectorPage: SectorPage = {
    sectors: summary,
    members: SECTORS.map((s) => ({
      sectorCode: s.code,
      sectorName: s.name,
      symbols: (memberRows.get(s.code) ?? []).map((r) => r.symbol),
    })),
  };

  return {
    options,
    asOfDate,
    asOfLabel: asOfLabelOf(asOfDate, asOfTime),
    asOfIso,
    sectors: SECTORS,
    instruments,
    instrument: (symbol) => bySymbol.get(symbol),
    day: (symbol) => days.get(symbol),
    symbols,
    screener,
    marketWatch,
    indexCodes: INDEX_CODES,
    indexInfo: (code) => indexInfos.get(code),
    indexConstituents: (code) => constituents.get(code) ?? null,
    indexLevels: { asOf: asOfIso, rows: levelRows },
    sectorPage,
    sectorMemberRows: (code) => memberRows.get(code) ?? [],
    history(symbol) {
      const inst = bySymbol.get(symbol);
      const model = models.get(symbol);
      if (!inst || !model || inst.historyRows === 0) return [];
      return generateHistory(
        seed,
        symbol,
        model,
        inst.traded ? asOfDate : previousTradingDay,
        inst.historyRows,
      );
    },
    reports(symbol) {
      const inst = bySymbol.get(symbol);
      if (!inst) return null;
      return inst.hasReports ? generateReports(seed, inst, asOfDate) : [];
    },
    anomalies: HISTORY_ANOMALIES,
  };
}

const cache = new Map<string, Dataset>();

/** The dataset for these options; the same options give the same (shared, read-only) instance. */
export function createDataset(options: DatasetOptions = {}): Dataset {
  const full: Required<DatasetOptions> = {
    seed: options.seed ?? DEFAULT_SEED,
    extraSymbols: Math.max(0, Math.floor(options.extraSymbols ?? 0)),
    historyRows: Math.max(0, Math.floor(options.historyRows ?? 0)),
    asOfDate: options.asOfDate ?? AS_OF_DATE,
    asOfTime: options.asOfTime ?? defaultAsOfTime(options.asOfDate ?? AS_OF_DATE),
  };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(full.asOfDate) || tradingDays(full.asOfDate, 1)[0] !== full.asOfDate) {
    throw new RangeError(`asOfDate must be a weekday as YYYY-MM-DD, got ${full.asOfDate}`);
  }
  if (!/^\d{2}:\d{2}$/.test(full.asOfTime))
    throw new RangeError(`asOfTime must be HH:MM, got ${full.asOfTime}`);
  const key = `${full.seed}:${full.extraSymbols}:${full.historyRows}:${full.asOfDate}:${full.asOfTime}`;
  let ds = cache.get(key);
  if (!ds) {
    ds = buildDataset(full);
    cache.set(key, ds);
  }
  return ds;
}
