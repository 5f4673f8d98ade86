// Portal-side shapes of the market-wide pages: payouts, the calendar,
// announcements, the debt market, the trading boards and the eligible-scrips page. As in
// types.ts: the portal's own terms, raw numbers, null for a blank cell.
import type { PayoutEntry } from './types.ts';

/** `Showing  1 to 25 of 559 entries`: rows `first`–`last` (1-based) of `total`. */
export interface Paging {
  first: number;
  last: number;
  total: number;
}

/** One row of `POST /payouts`. */
export interface MarketPayoutRow {
  symbol: string;
  company: string | null;
  sector: string | null;
  /** The Dividend Announcement cell's text, spaces collapsed. */
  details: string;
  /** What the cell says; empty when its shape is not understood (the text is then reported raw). */
  entries: readonly PayoutEntry[];
  /** ISO 8601 with +05:00; null when unreadable (`announcedText` keeps the cell). */
  announced: string | null;
  announcedText: string | null;
  bookClosureFrom: string | null;
  bookClosureTo: string | null;
  /** The Book Closure cell when it is neither `-` nor a readable range; else null. */
  bookClosureText: string | null;
}

export interface MarketPayoutsPage {
  /** null when the page prints no "Showing …" line (an empty result). */
  paging: Paging | null;
  rows: readonly MarketPayoutRow[];
}

/** One meeting of `POST /calendar`. */
export interface MeetingRow {
  id: string | null;
  symbol: string;
  name: string | null;
  /** `AGM`, `EOGM`, or another code as published. */
  type: string;
  date: string | null;
  /** `HH:MM`; null when absent or unreadable. */
  time: string | null;
  city: string | null;
  periodEnd: string | null;
}

/** One row of `POST /announcements`. */
export interface AnnouncementRow {
  date: string | null;
  /** `HH:MM`, 24-hour. */
  time: string | null;
  symbol: string | null;
  name: string | null;
  title: string;
  revoked: boolean;
  /** Absolute URL of the PDF or attachment; null when the row links none. */
  document: string | null;
  /** `pdf` (a document is linked), `image` (only images: the `View` link), or null for neither. */
  documentKind: 'pdf' | 'image' | null;
  /**
   * The page images the `View` link shows (`283814-1.gif`), as the portal names them. Absent from
   * a page stored (Redis, the disk store) before the field existed: read it as none.
   */
  images?: string[];
}

export interface AnnouncementsPage {
  paging: Paging | null;
  rows: readonly AnnouncementRow[];
}

/** One instrument of `GET /debt-market`. */
export interface DebtInstrumentRow {
  /** 1-based position of its table on the page (government securities first, then corporate issues). */
  table: number;
  /** The table's title: its tab's label (`GoP Ijarah Sukuk`) or the heading before it, when the page has one. */
  heading: string | null;
  code: string;
  name: string | null;
  faceValue: number | null;
  listingDate: string | null;
  issueDate: string | null;
  /** PKR (`53.71B` → 53,710,000,000). */
  issueSize: number | null;
  maturityDate: string | null;
  /** Percent (`11.4400%` → 11.44). */
  couponRate: number | null;
  previousCouponDate: string | null;
  nextCouponDate: string | null;
  outstandingDays: number | null;
  remainingYears: number | null;
}

/** One row of `GET /trading-board/{MARKET}/{board}` (`#tradingBoardTable`); absent columns are null. */
export interface BoardRow {
  symbol: string;
  name: string | null;
  bidVolume: number | null;
  bidPrice: number | null;
  bidYield: number | null;
  offerVolume: number | null;
  offerPrice: number | null;
  offerYield: number | null;
  lastPrice: number | null;
  lastYield: number | null;
  ldcp: number | null;
  ldcy: number | null;
  change: number | null;
  volume: number | null;
}

/** One market of `GET /eligible-scrips`. */
export interface EligibleMarket {
  /** `REG`, `FUT`, `CSF`, … from the table id (`FUTTable`). */
  code: string;
  title: string | null;
  scrips: readonly { symbol: string; name: string | null }[];
}
