// What the evidence says about a symbol's corporate actions (corporate-actions.ts makes it), in a
// file of its own so that the archive, which keeps its factors, need not import the analysis.
import type { CorporateActionT } from './resources.ts';

/** One capital change as the factors use it. */
export interface CapitalChange {
  exDate: string;
  ratio: number;
}

/** What the evidence says about a symbol, shared by the list and the adjusted history. */
export interface ActionsAnalysis {
  /** Every action found, oldest first (the API rows). */
  actions: CorporateActionT[];
  /** Capital changes confirmed by the raw prices: the ones the factors apply. */
  applied: CapitalChange[];
  /** Cash dividends the factors apply with dividends=true: ex-date and the factor (1 − D ÷ close before). */
  dividendFactors: { exDate: string; factor: number }[];
  /** First day of the adjusted series (null when it is empty): older rows are adjusted partially. */
  seriesStart: string | null;
  /** Oldest announcement on the payouts page (a rolling window of about 17–18 months); null when none. */
  payoutsSince: string | null;
  /** Whether the payouts page was read (false: dividends unknown, not absent). */
  payoutsRead: boolean;
}
