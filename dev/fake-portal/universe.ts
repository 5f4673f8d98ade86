// The base universe: the sectors, the listed instruments with their reference prices and sizes, and
// the indices with their members, as fixed data. Generated extra symbols: extra-symbols.ts.
import type { InstrumentKind, SectorDef } from './dataset-types.ts';

/** The Engro history's length: long enough to reach back past every planted corporate action. */
export const ENGRO_HISTORY_ROWS = 2162;

/** HBLTTI is a treasury index the portal shows as stale: N/A high/low and a timestamp. */
export const STALE_INDEX = {
  code: 'HBLTTI',
  since: '2026-11-19T18:30:00+05:00',
  label: '19-11-2026 18:30:00',
};

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
export const DEBT_SECTOR = 'BILLS AND BONDS';

export interface BaseSpec {
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
export const BASE: readonly BaseSpec[] = [
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
export const KMI30 = [
  'LUCK', 'MLCF', 'FCCL', 'DGKC', 'CHCC', 'KOHC', 'MEBL', 'ENGRO', 'EFERT', 'FATIMA', 'FFC', 'OGDC', 'PPL', 'MARI',
  'POL', 'PSO', 'SNGP', 'APL', 'HUBC', 'SYS', 'AIRLINK', 'SEARL', 'AGP', 'HALEON', 'INDU', 'HCAR', 'ATLH', 'PIBTL',
  'PNSC', 'NPL',
];
export const KMIALL_EXTRA = [
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

export interface IndexDef {
  code: string;
  title: string;
  ldcp: number;
  sizeColumn: 'freefloat' | 'shares';
  /** Explicit members, or 'all' (every equity) / 'kmiall' (KMI30 plus more, and a third of extras). */
  members: readonly string[] | 'all' | 'kmiall';
}

// Order as on the portal's /indices page. The all-share indices carry SHARES (M), the others FREEFLOAT (M).
// prettier-ignore
export const INDEX_DEFS: readonly IndexDef[] = [
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
export const STALE_INDEX_CURRENT = 19097.05;

export const INDEX_CODES: readonly string[] = INDEX_DEFS.map((d) => d.code);
