// The step detector and the evidence rules on small hand-made series (the HTTP tests in
// test/contract/adjusted-history.test.ts run them against the fake portal's planted actions).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EodRow, HistoryRow, PayoutRow } from '../../src/exchange/types.ts';
import { analyseActions, detectSteps } from '../../src/market/corporate-actions/corporate-actions.ts';

/** Weekdays from 2025-01-06 on. */
function dates(n: number): string[] {
  const out: string[] = [];
  for (let t = Date.UTC(2025, 0, 6); out.length < n; t += 86_400_000) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A gentle walk (oldest first) around `price`, within every price limit. */
function walk(n: number, price: number): HistoryRow[] {
  return dates(n).map((date, i) => {
    const close = round2(price * (1 + 0.01 * Math.sin(i / 3)));
    return { date, open: close, high: close, low: close, close, volume: 1000 };
  });
}

/** The adjusted series of `raw` (newest first): prices before each ex-date ÷ its ratio, to the paisa. */
function eodOf(raw: HistoryRow[], steps: Record<string, number> = {}): EodRow[] {
  let divisor = 1;
  const out: EodRow[] = [];
  for (let i = raw.length - 1; i >= 0; i--) {
    const row = raw[i]!;
    out.push({ date: row.date, close: round2((row.close as number) / divisor), volume: 1000, open: null });
    divisor *= steps[row.date] ?? 1;
  }
  return out;
}

/** Raw prices from `date` on are ÷ ratio (a bonus on its ex-date). */
function withGap(raw: HistoryRow[], date: string, ratio: number): HistoryRow[] {
  return raw.map((r) => {
    if (r.date >= date) return r;
    const close = round2((r.close as number) * ratio);
    return { ...r, open: close, high: close, low: close, close };
  });
}

describe('detectSteps', () => {
  it('finds no step when the series equals the raw closes', () => {
    const raw = walk(60, 100);
    assert.deepEqual(detectSteps(raw, eodOf(raw)), []);
  });

  it('finds a 10 % bonus at its ex-date with ratio 1.1, even for a Rs 3 stock rounded to the paisa', () => {
    for (const price of [3, 100, 2500]) {
      const exDate = dates(60)[30]!;
      const raw = withGap(walk(60, price), exDate, 1.1);
      assert.deepEqual(
        detectSteps(raw, eodOf(raw, { [exDate]: 1.1 })),
        [{ exDate, ratio: 1.1 }],
        `Rs ${price}`,
      );
    }
  });

  it('ignores one or two stray rows, including a stray first row', () => {
    const raw = walk(60, 100);
    const eod = eodOf(raw).map((r, i) =>
      i === 10 || i === 11 || i === 59 ? { ...r, close: r.close * 1.5 } : r,
    );
    assert.deepEqual(detectSteps(raw, eod), []);
  });

  it('needs three days at the new level: a step on the newest two days is not seen yet', () => {
    const d = dates(60);
    const raw = withGap(walk(60, 100), d[58]!, 2);
    assert.deepEqual(detectSteps(raw, eodOf(raw, { [d[58]!]: 2 })), []);
  });
});

describe('analyseActions', () => {
  const d = dates(60);
  const exDate = d[30]!;

  it('applies a step the raw gap confirms, beyond the price limit', () => {
    const raw = withGap(walk(60, 100), exDate, 2);
    const { actions, applied } = analyseActions([...raw].reverse(), eodOf(raw, { [exDate]: 2 }), null);
    assert.deepEqual(applied, [{ exDate, ratio: 2 }]);
    assert.deepEqual(actions[0]?.evidence, ['adjusted_series_step', 'raw_gap', 'beyond_price_limit']);
  });

  it('does not apply a step without a raw gap, nor one whose gap has the wrong size', () => {
    const raw = walk(60, 100);
    const none = analyseActions([...raw].reverse(), eodOf(raw, { [exDate]: 2 }), null);
    assert.deepEqual(none.applied, []);
    assert.equal(none.actions[0]?.applied, false);
    // The raw prices halve, the series says ×1.25: the gap is no bonus of 25 %.
    const halved = withGap(raw, exDate, 2);
    const wrong = analyseActions([...halved].reverse(), eodOf(halved, { [exDate]: 1.25 }), null);
    assert.ok(wrong.actions.every((a) => !a.applied));
  });

  const dividendPayout = (percent: number): PayoutRow => ({
    announced: '2025-01-20T15:00:00+05:00',
    periodEnded: '2024-12-31',
    periodCode: 'YR',
    details: `${percent}%(F) (D)`,
    entries: [{ kind: 'dividend', percent, label: 'F' }],
    bookClosureFrom: d[31]!,
    bookClosureTo: d[33]!,
  });

  it('does not take a step the size of a listed cash dividend for a capital change', () => {
    // A series that (unlike the portal's, by its own account) folds in a Rs 20 dividend.
    // The raw prices drop by the dividend on the ex-date, so the gap alone would confirm the step.
    const raw = walk(60, 100).map((r) => {
      if (r.date >= exDate) return r;
      const close = round2((r.close as number) + 20);
      return { ...r, open: close, high: close, low: close, close };
    });
    const cum = raw[29]!.close as number;
    const ratio = cum / (cum - 20);
    const { actions, applied, dividendFactors } = analyseActions(
      [...raw].reverse(),
      eodOf(raw, { [exDate]: ratio }),
      [dividendPayout(200)],
    );
    assert.deepEqual(applied, []);
    const step = actions.find((a) => a.kind === 'capital_change');
    assert.ok(step?.evidence.includes('raw_gap'));
    assert.equal(step?.applied, false);
    assert.match(step?.note ?? '', /matches the cash dividend of Rs 20/);
    assert.equal(dividendFactors.length, 1, 'the dividend itself stays available for dividends=true');
  });

  it('reads dividends from payouts: the ex-date is the trading day before the book closure', () => {
    const raw = walk(60, 100);
    const payout: PayoutRow = {
      announced: '2025-01-20T15:00:00+05:00',
      periodEnded: '2024-12-31',
      periodCode: 'YR',
      details: '25%(F) (D)',
      entries: [{ kind: 'dividend', percent: 25, label: 'F' }],
      bookClosureFrom: d[31]!,
      bookClosureTo: d[33]!,
    };
    const { actions, dividendFactors, payoutsSince } = analyseActions([...raw].reverse(), eodOf(raw), [
      payout,
    ]);
    assert.equal(actions[0]?.ex_date, exDate);
    assert.equal(actions[0]?.amount, 2.5);
    assert.deepEqual(dividendFactors, [{ exDate, factor: 1 - 2.5 / (raw[29]!.close as number) }]);
    assert.equal(payoutsSince, '2025-01-20');
  });
});
