// The fake portal's corporate actions: capital changes, cash dividends and two misleading cases,
// planted in the raw histories (`POST /historical`) and told consistently by the adjusted series
// (`GET /timeseries/eod/{SYM}`) and the payouts page (`POST /company/payouts`).
// Every planted date lies before the last 260 trading days, so the recent year that the boards
// and the quote derive from is the same as without them.
import type { HistoryRow } from '../../src/exchange/types.ts';
import type { Dataset } from './dataset-types.ts';

export type PlantedKind = 'bonus' | 'split' | 'right' | 'cash_dividend' | 'crash' | 'phantom_step';

export interface PlantedAction {
  symbol: string;
  /** The first trading day without the entitlement, `YYYY-MM-DD` (a weekday). */
  exDate: string;
  kind: PlantedKind;
  /**
   * bonus, split: shares after ÷ shares before; the raw close drops by this factor on the ex-date
   * and the adjusted series steps by it. right: the right shares per share held (0.3 = 30 %); the
   * price factor follows from the subscription price. crash: the raw drop (no action behind it,
   * the adjusted series shows the same drop). phantom_step: the adjusted series steps by it while
   * the raw prices show no gap.
   */
  ratio?: number;
  /** right: subscription price, PKR. */
  subscription?: number;
  /** cash_dividend: percent of the Rs 10 face value. */
  percent?: number;
  /** The payouts page's row, when the action is announced there. */
  payout?: { announced: string; period: string; details: string };
}

/** Face value of every fake company's shares (PKR). */
export const FACE_VALUE = 10;

// prettier-ignore
export const PLANTED_ACTIONS: readonly PlantedAction[] = [
  // ENGRO's raw gap is planted by HISTORY_ANOMALIES in dataset.ts (same date and factor).
  { symbol: 'ENGRO', exDate: '2025-06-16', kind: 'bonus', ratio: 1.25,
    payout: { announced: 'May 29, 2025 4:12 PM', period: '31/03/2025(IQ)', details: ' 25% (B) ' } },
  // 10 % bonus while the limit was 7.5 %: the 9.1 % drop lies beyond it.
  { symbol: 'LUCK', exDate: '2023-06-14', kind: 'bonus', ratio: 1.1 },
  { symbol: 'SYS', exDate: '2024-03-13', kind: 'split', ratio: 2 },
  { symbol: 'MEBL', exDate: '2025-08-13', kind: 'right', ratio: 0.3, subscription: 10,
    payout: { announced: 'July 30, 2025 3:05 PM', period: '30/06/2025(HYR)', details: ' 30% (R) ' } },
  { symbol: 'OGDC', exDate: '2025-06-05', kind: 'cash_dividend', percent: 32.5,
    payout: { announced: 'May 22, 2025 2:30 PM', period: '31/03/2025(IIIQ)', details: '32.50%(iii) (D)' } },
  { symbol: 'OGDC', exDate: '2025-09-16', kind: 'cash_dividend', percent: 50,
    payout: { announced: 'August 28, 2025 4:45 PM', period: '30/06/2025(YR)', details: 'DIVIDEND =50% (F)' } },
  { symbol: 'OGDC', exDate: '2025-11-07', kind: 'cash_dividend', percent: 75,
    payout: { announced: 'October 27, 2025 5:10 PM', period: '30/09/2025(IQ)', details: ' 75%(i) (D) ' } },
  { symbol: 'FFC', exDate: '2025-06-02', kind: 'cash_dividend', percent: 40,
    payout: { announced: 'May 21, 2025 11:05 AM', period: '31/03/2025(IQ)', details: '40%(ii (D)' } },
  { symbol: 'FFC', exDate: '2025-07-24', kind: 'cash_dividend', percent: 80,
    payout: { announced: 'July 10, 2025 11:20 AM', period: '30/06/2025(HYR)', details: '80(ii) (D)' } },
  // Two dividends announced together: one cell, one book closure, 15 % in all.
  { symbol: 'FFC', exDate: '2025-10-22', kind: 'cash_dividend', percent: 15,
    payout: { announced: 'October 9, 2025 3:40 PM', period: '30/09/2025(IQ)', details: '10%(i) (D) - 5%(i) (D)' } },
  // Misleading: a real crash far beyond the limit, no action behind it. Must stay unadjusted.
  { symbol: 'HUBC', exDate: '2024-10-16', kind: 'crash', ratio: 1.35 },
  // Misleading: the adjusted series steps ×2 but the raw prices show no gap. Reported, not applied.
  { symbol: 'NBP', exDate: '2024-04-10', kind: 'phantom_step', ratio: 2 },
];

/** About five years of rows, as the portal's series holds. */
export const EOD_ROWS = 1250;
/** The portal's recent rows sit at 16:00 Karachi; older ones at other times (here midnight). */
const EOD_FOUR_PM_FROM = '2024-01-01';

const round2 = (x: number): number => Math.round(x * 100) / 100;
const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function actionOn(symbol: string, date: string): PlantedAction | undefined {
  return PLANTED_ACTIONS.find((a) => a.symbol === symbol && a.exDate === date);
}

/**
 * The previous trading day's raw close, generating backwards: `ref` is the close the ex-date's
 * move is measured from had nothing happened. ENGRO's bonus is planted by HISTORY_ANOMALIES.
 */
export function closeBefore(symbol: string, date: string, ref: number): number {
  const action = actionOn(symbol, date);
  if (action === undefined || symbol === 'ENGRO') return ref;
  switch (action.kind) {
    case 'bonus':
    case 'split':
    case 'crash':
      return round2(ref * (action.ratio as number));
    case 'right': {
      // ref is the theoretical ex-right price: (cum + r × subscription) / (1 + r).
      const r = action.ratio as number;
      return round2(ref * (1 + r) - r * (action.subscription as number));
    }
    case 'cash_dividend':
      return round2(ref + ((action.percent as number) / 100) * FACE_VALUE);
    case 'phantom_step':
      return ref;
  }
}

/**
 * How much the adjusted series divides the prices before this action by (1 when it does not):
 * the price factor of a capital change, computed from the raw close before the ex-date as the
 * portal would.
 */
function seriesStep(action: PlantedAction, closeBeforeEx: number): number {
  switch (action.kind) {
    case 'bonus':
    case 'split':
    case 'phantom_step':
      return action.ratio as number;
    case 'right': {
      const r = action.ratio as number;
      return (closeBeforeEx * (1 + r)) / (closeBeforeEx + r * (action.subscription as number));
    }
    default:
      return 1;
  }
}

/** The capital-change steps the adjusted series of `symbol` applies, keyed by ex-date. */
export function seriesSteps(symbol: string, rawNewestFirst: readonly HistoryRow[]): Map<string, number> {
  const steps = new Map<string, number>();
  rawNewestFirst.forEach((row, i) => {
    const action = actionOn(symbol, row.date);
    const before = rawNewestFirst[i + 1];
    if (action === undefined || before === undefined) return;
    const step = seriesStep(action, before.close as number);
    if (step !== 1) steps.set(row.date, step);
  });
  return steps;
}

function eodEpoch(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const hourUtc = date >= EOD_FOUR_PM_FROM ? 11 : -5;
  return Date.UTC(y, m - 1, d, hourUtc) / 1000;
}

/**
 * `GET /timeseries/eod/{SYM}`: the newest EOD_ROWS raw rows, prices ÷ (and volume ×) later steps.
 * Unknown symbols and (our choice) rights symbols such as 786R get `data: []`.
 */
export function renderEod(ds: Dataset, symbol: string): string {
  const rawNewestFirst = ds.instrument(symbol)?.kind === 'right' ? [] : ds.history(symbol);
  const steps = seriesSteps(symbol, rawNewestFirst);
  const data: [number, number, number, number][] = [];
  let divisor = 1;
  for (const row of rawNewestFirst.slice(0, EOD_ROWS)) {
    data.push([
      eodEpoch(row.date),
      round2((row.close as number) / divisor),
      Math.round((row.volume as number) * divisor),
      round2((row.open as number) / divisor),
    ]);
    // Rows older than an ex-date are divided by its step.
    divisor *= steps.get(row.date) ?? 1;
  }
  return JSON.stringify({ status: 1, message: '', data });
}

/** `dd/mm/yyyy` of a date, shifted by whole weekdays. */
function weekdayShift(date: string, weekdays: number): string {
  let t = Date.parse(`${date}T00:00:00Z`);
  let left = weekdays;
  while (left > 0) {
    t += 86_400_000;
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  const iso = new Date(t).toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/**
 * `POST /company/payouts`: the bare table, newest first. The book closure starts the weekday after
 * the ex-date (T+1 settlement) and lasts three weekdays. A symbol without payouts, or one the
 * portal does not know, gets the table with an empty body.
 */
export function renderPayouts(symbol: string): string {
  const rows = PLANTED_ACTIONS.filter((a) => a.symbol === symbol && a.payout !== undefined)
    .sort((a, b) => (a.exDate < b.exDate ? 1 : -1))
    .map((a) => {
      const p = a.payout as NonNullable<PlantedAction['payout']>;
      const closure = `${weekdayShift(a.exDate, 1)}  - ${weekdayShift(a.exDate, 3)} `;
      return (
        `<tr><td>${escapeHtml(p.announced)}</td><td>${escapeHtml(p.period)}</td>` +
        `<td>${escapeHtml(p.details)}</td><td>${closure}</td></tr>`
      );
    });
  return (
    '<table class="tbl"><thead class="tbl__head"><tr><th>Date</th><th>Financial Results</th>' +
    '<th>Details</th><th>Book Closure</th></tr></thead>' +
    `<tbody class="tbl__body">${rows.join('')}</tbody></table>`
  );
}
