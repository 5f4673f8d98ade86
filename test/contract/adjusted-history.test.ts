// Adjusted history and corporate actions over real HTTP: the service against the fake portal, whose
// raw histories carry planted actions (dev/fake-portal/corporate-actions.ts). Expected values are
// computed here from the fake's raw rows and the planted ratios, not from the service's code.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { PLANTED_ACTIONS } from '../../dev/fake-portal/corporate-actions.ts';
import { HISTORY_ANOMALIES } from '../../dev/fake-portal/dataset.ts';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import type { HistoryRow } from '../../src/exchange/types.ts';
import { priceLimitBand } from '../../src/market/price-limit.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

interface Row {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  is_anomaly: boolean;
  anomaly_reasons: string[];
  adjustment_factor: number | null;
}

let portal: FakePortal;
let svc: RunningService;

before(async () => {
  portal = await startFakePortal();
  svc = await startService(portal.url);
});
after(async () => {
  await svc.close();
  await portal.close();
});
afterEach(() => portal.clear());

/** The fake's raw rows, oldest first. */
function raw(symbol: string): HistoryRow[] {
  return [...portal.dataset.history(symbol)].reverse();
}

async function adjusted(symbol: string, query = ''): Promise<{ rows: Row[]; meta: Record<string, unknown> }> {
  const res = await http(svc.url, `/stocks/${symbol}/historical?adjusted=true${query}`);
  assert.equal(res.status, 200, res.text);
  return { rows: res.json.data as Row[], meta: res.json.meta };
}

function planted(symbol: string, kind: string): { exDate: string; ratio?: number; percent?: number } {
  const action = PLANTED_ACTIONS.find((a) => a.symbol === symbol && a.kind === kind);
  assert.ok(action, `${symbol} ${kind} planted`);
  return action;
}

function near(actual: number | null, expected: number, tolerance = 1e-4, what = ''): void {
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what}: ${actual} ≠ ${expected}`);
}

/** Rows adjusted for a capital change: raw × 1/ratio before the ex-date, raw from it on. */
function assertCapitalChange(rows: Row[], symbol: string, exDate: string, ratio: number): void {
  const rawRows = raw(symbol);
  assert.equal(rows.length, rawRows.length);
  rows.forEach((row, i) => {
    const r = rawRows[i] as HistoryRow;
    assert.equal(row.date, r.date);
    const factor = row.date < exDate ? 1 / ratio : 1;
    near(row.adjustment_factor, factor, 1e-12, `${symbol} ${row.date} factor`);
    near(row.close, (r.close as number) * factor, 1e-4, `${symbol} ${row.date} close`);
    near(row.open, (r.open as number) * factor, 1e-4, `${symbol} ${row.date} open`);
    near(row.high, (r.high as number) * factor, 1e-4, `${symbol} ${row.date} high`);
    near(row.low, (r.low as number) * factor, 1e-4, `${symbol} ${row.date} low`);
    assert.equal(row.volume, Math.round((r.volume as number) / factor), `${symbol} ${row.date} volume`);
  });
  // Adjusted, the ex-date's move lies within the day's price limit: the "crash" was the action.
  const i = rows.findIndex((r) => r.date === exDate);
  const band = priceLimitBand(rows[i - 1]!.close, exDate);
  assert.ok(
    rows[i]!.close >= band.lower && rows[i]!.close <= band.upper,
    `${symbol} adjusted ex-date within limit`,
  );
  assert.deepEqual(rows[i]!.anomaly_reasons, ['beyond_price_limit', 'corporate_action']);
  assert.equal(rows[i]!.is_anomaly, true);
}

describe('GET /stocks/{symbol}/corporate-actions', () => {
  it('lists the planted bonus with every source that agrees, and how far the record reaches', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/corporate-actions');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.data, [
      {
        ex_date: HISTORY_ANOMALIES.bonusExDate,
        kind: 'capital_change',
        ratio: HISTORY_ANOMALIES.bonusFactor,
        amount: null,
        evidence: ['adjusted_series_step', 'raw_gap', 'beyond_price_limit', 'payouts'],
        applied: true,
        note: 'bonus 25 % on the payouts page',
      },
    ]);
    assert.equal(res.json.meta.count, 1);
    assert.deepEqual(res.json.meta.coverage, {
      capital_changes_from: '2022-02-07',
      dividends_from: '2025-05-29',
      face_value: 10,
    });
  });

  it('finds the 10 % bonus (1.1), the 1:1 split (2) and the right issue (its price factor)', async () => {
    const bonus = planted('LUCK', 'bonus');
    const split = planted('SYS', 'split');
    const right = PLANTED_ACTIONS.find((a) => a.symbol === 'MEBL' && a.kind === 'right')!;
    const luck = (await http(svc.url, '/stocks/LUCK/corporate-actions')).json.data;
    assert.deepEqual(
      luck.map((a: Record<string, unknown>) => [a.ex_date, a.ratio, a.applied]),
      [[bonus.exDate, 1.1, true]],
    );
    const sys = (await http(svc.url, '/stocks/SYS/corporate-actions')).json.data;
    assert.deepEqual(
      sys.map((a: Record<string, unknown>) => [a.ex_date, a.ratio, a.applied]),
      [[split.exDate, 2, true]],
    );
    // A 30 % right at Rs 10: the price factor is cum ÷ theoretical ex-right price.
    const rows = raw('MEBL');
    const cum = rows[rows.findIndex((r) => r.date === right.exDate) - 1]!.close as number;
    const factor = (cum * 1.3) / (cum + 0.3 * 10);
    const [mebl] = (await http(svc.url, '/stocks/MEBL/corporate-actions')).json.data;
    assert.equal(mebl.ex_date, right.exDate);
    near(mebl.ratio, factor, 2e-4, 'right factor');
    assert.ok(mebl.evidence.includes('payouts') && mebl.applied);
    assert.equal(mebl.note, 'right 30 % on the payouts page');
  });

  it('reports a step the raw prices contradict, with its evidence, and does not apply it', async () => {
    const phantom = planted('NBP', 'phantom_step');
    const res = await http(svc.url, '/stocks/NBP/corporate-actions');
    assert.equal(res.json.data.length, 1);
    const [action] = res.json.data;
    assert.equal(action.ex_date, phantom.exDate);
    assert.equal(action.ratio, 2);
    assert.deepEqual(action.evidence, ['adjusted_series_step']);
    assert.equal(action.applied, false);
    assert.match(action.note, /no gap of ×2 on 2024-04-10.*not applied/);
  });

  it('finds nothing behind the crash: a move beyond the limit alone is no action', async () => {
    const res = await http(svc.url, '/stocks/HUBC/corporate-actions');
    assert.deepEqual(res.json.data, []);
  });

  it('lists cash dividends in PKR per share at the Rs 10 face value, two from one cell', async () => {
    const res = await http(svc.url, '/stocks/FFC/corporate-actions');
    assert.deepEqual(
      res.json.data.map((a: Record<string, unknown>) => [a.ex_date, a.kind, a.amount, a.evidence, a.applied]),
      [
        ['2025-06-02', 'cash_dividend', 4, ['payouts'], true],
        ['2025-07-24', 'cash_dividend', 8, ['payouts'], true],
        ['2025-10-22', 'cash_dividend', 1, ['payouts'], true],
        ['2025-10-22', 'cash_dividend', 0.5, ['payouts'], true],
      ],
    );
    assert.match(res.json.data[0].note, /face value, taken as Rs 10/);
  });

  it('answers CSV, and 404 for an unknown symbol', async () => {
    const csv = await http(svc.url, '/stocks/ENGRO/corporate-actions?format=csv');
    assert.equal(csv.status, 200);
    assert.match(csv.headers['content-type']!, /text\/csv/);
    assert.equal(csv.text.split('\r\n')[0], 'ex_date,kind,ratio,amount,evidence,applied,note');
    assert.match(
      csv.text,
      /2025-06-16,capital_change,1.25,,adjusted_series_step;raw_gap;beyond_price_limit;payouts,true/,
    );
    const unknown = await http(svc.url, '/stocks/NOSUCH/corporate-actions');
    assertError(unknown.json, 404, 'not_found', 'NOSUCH not found');
  });
});

describe('GET /stocks/{symbol}/historical?adjusted=true', () => {
  it('adjusts the 10 % bonus: prices ÷ 1.1 and volume × 1.1 before the ex-date, raw from it on', async () => {
    const { exDate } = planted('LUCK', 'bonus');
    const { rows, meta } = await adjusted('LUCK');
    assertCapitalChange(rows, 'LUCK', exDate, 1.1);
    assert.deepEqual(meta.adjustment, {
      status: 'full',
      series_start: raw('LUCK')[0]!.date,
      partial_before: null,
      dividends: false,
      dividends_from: null,
      reason: null,
    });
  });

  it('adjusts the 1:1 split (÷ 2) and says the rows older than the adjusted series are partial', async () => {
    const { exDate } = planted('SYS', 'split');
    const { rows, meta } = await adjusted('SYS');
    assertCapitalChange(rows, 'SYS', exDate, 2);
    const adjustment = meta.adjustment as Record<string, unknown>;
    assert.equal(adjustment.status, 'partial');
    assert.equal(adjustment.partial_before, '2022-02-07');
    // A range inside the series is fully adjusted.
    const recent = await adjusted('SYS', '&start=2024-01-01&end=2024-06-30');
    assert.equal((recent.meta.adjustment as Record<string, unknown>).status, 'full');
  });

  it("adjusts ENGRO's bonus; rows before the series carry the factor known at its start", async () => {
    const { rows, meta } = await adjusted('ENGRO');
    assertCapitalChange(rows, 'ENGRO', HISTORY_ANOMALIES.bonusExDate, HISTORY_ANOMALIES.bonusFactor);
    assert.equal(rows[0]!.date, '2018-08-09');
    assert.equal(rows[0]!.adjustment_factor, 0.8);
    assert.equal((meta.adjustment as Record<string, unknown>).partial_before, '2022-02-07');
    // The other planted anomalies keep their reasons.
    const zeroVolume = rows.find((r) => r.date === HISTORY_ANOMALIES.zeroVolumeMoveDate)!;
    assert.ok(zeroVolume.anomaly_reasons.includes('zero_volume_move'));
  });

  it('leaves the crash unadjusted: factor 1 everywhere, raw prices, beyond_price_limit only', async () => {
    const crash = planted('HUBC', 'crash');
    const { rows } = await adjusted('HUBC');
    const rawRows = raw('HUBC');
    rows.forEach((row, i) => {
      assert.equal(row.adjustment_factor, 1, row.date);
      assert.equal(row.close, rawRows[i]!.close, row.date);
      assert.equal(row.volume, rawRows[i]!.volume, row.date);
    });
    const day = rows.find((r) => r.date === crash.exDate)!;
    assert.deepEqual(day.anomaly_reasons, ['beyond_price_limit']);
  });

  it('does not apply the contradicted step: NBP stays raw', async () => {
    const { rows } = await adjusted('NBP');
    assert.ok(rows.every((r) => r.adjustment_factor === 1));
  });

  it('with dividends=true also adjusts for cash dividends: 1 − amount ÷ the close before the ex-date', async () => {
    const dividends = PLANTED_ACTIONS.filter((a) => a.symbol === 'OGDC' && a.kind === 'cash_dividend');
    const rawRows = raw('OGDC');
    const factorOf = (exDate: string, percent: number): number => {
      const i = rawRows.findIndex((r) => r.date === exDate);
      return 1 - ((percent / 100) * 10) / (rawRows[i - 1]!.close as number);
    };
    const { rows, meta } = await adjusted('OGDC', '&dividends=true');
    for (const row of rows) {
      const expected = dividends
        .filter((d) => d.exDate > row.date)
        .reduce((f, d) => f * factorOf(d.exDate, d.percent as number), 1);
      near(row.adjustment_factor, expected, 1e-12, `OGDC ${row.date}`);
    }
    const adjustment = meta.adjustment as Record<string, unknown>;
    assert.equal(adjustment.dividends, true);
    assert.equal(adjustment.dividends_from, '2025-05-22');
    // Without dividends=true, OGDC has no capital change: factor 1.
    const plain = await adjusted('OGDC');
    assert.ok(plain.rows.every((r) => r.adjustment_factor === 1));
  });

  it('keeps the default answer raw and exactly as before', async () => {
    const res = await http(svc.url, '/stocks/LUCK/historical?start=2023-06-13&end=2023-06-14');
    assert.deepEqual(Object.keys(res.json.meta).sort(), ['as_of', 'cached', 'count', 'timestamp']);
    const rawRows = raw('LUCK').filter((r) => r.date >= '2023-06-13' && r.date <= '2023-06-14');
    assert.deepEqual(
      res.json.data.map((r: Row) => [r.date, r.close, r.volume, r.anomaly_reasons, 'adjustment_factor' in r]),
      rawRows.map((r, i) => [r.date, r.close, r.volume, i === 1 ? ['beyond_price_limit'] : [], false]),
    );
    const explicit = await http(
      svc.url,
      '/stocks/LUCK/historical?start=2023-06-13&end=2023-06-14&adjusted=false',
    );
    assert.deepEqual(explicit.json.data, res.json.data);
  });

  it('answers 422 naming the accepted values for a bad adjusted or dividends, 400 for dividends alone', async () => {
    const bad = await http(svc.url, '/stocks/LUCK/historical?adjusted=yes');
    assertError(bad.json, 422, 'bad_request', 'adjusted must be true or false (got "yes")');
    const badDividends = await http(svc.url, '/stocks/LUCK/historical?adjusted=true&dividends=1');
    assertError(badDividends.json, 422, 'bad_request', /dividends must be true or false/);
    const alone = await http(svc.url, '/stocks/LUCK/historical?dividends=true');
    assertError(alone.json, 400, 'bad_request', /with adjusted=true/);
  });

  it('fetches the adjusted series once per freshness window, however many ask at once', async () => {
    portal.resetCounts();
    const answers = await Promise.all(Array.from({ length: 6 }, () => adjusted('PSO')));
    await adjusted('PSO', '&order=desc');
    assert.ok(answers.every((a) => a.rows.length === answers[0]!.rows.length));
    assert.equal(portal.counts().requests['GET /timeseries/eod/PSO'], 1);
    // A repeat is a cache hit (replayed below the router) and keeps its meta.adjustment.
    const repeat = await http(svc.url, '/stocks/PSO/historical?adjusted=true');
    assert.equal(repeat.headers['x-cache'], 'HIT');
    assert.deepEqual(repeat.json.meta.adjustment, answers[0]!.meta.adjustment);
    assert.equal(portal.counts().requests['GET /timeseries/eod/PSO'], 1);
  });
});

describe('adjusted history without a usable adjusted series', () => {
  it('an empty series: raw rows, null factors, and the reason in meta', async () => {
    const { rows, meta } = await adjusted('786R');
    const rawRows = raw('786R');
    assert.equal(rows.length, rawRows.length);
    rows.forEach((row, i) => {
      assert.equal(row.adjustment_factor, null);
      assert.equal(row.close, rawRows[i]!.close);
    });
    const adjustment = meta.adjustment as Record<string, unknown>;
    assert.equal(adjustment.status, 'unavailable');
    assert.match(adjustment.reason as string, /no adjusted series for 786R/);
  });

  it('a series that no longer parses: raw rows, null factors, never a wrong factor; the list says what is missing', async () => {
    portal.fail({ mode: 'garbage', path: '/timeseries/eod/AGP' });
    const { rows, meta } = await adjusted('AGP');
    assert.ok(rows.length > 0 && rows.every((r) => r.adjustment_factor === null));
    const adjustment = meta.adjustment as Record<string, unknown>;
    assert.equal(adjustment.status, 'unavailable');
    assert.match(adjustment.reason as string, /could not be read/);
    assert.deepEqual(
      (meta.missing as { part: string }[]).map((m) => m.part),
      ['adjustment'],
    );
    // The list has no capital change to show without the series, and says so rather than
    // reading as "no actions".
    const list = await http(svc.url, '/stocks/AGP/corporate-actions');
    assert.equal(list.status, 200);
    assert.ok(
      list.json.data.every((a: { evidence: string[] }) => !a.evidence.includes('adjusted_series_step')),
    );
    assert.deepEqual(
      list.json.meta.missing.map((m: { part: string }) => m.part),
      ['capital_changes'],
    );
    assert.match(list.json.meta.missing[0].reason, /eod page could not be read/);
  });

  it('the series unreachable with nothing cached: raw rows, and meta says the adjustment is missing', async () => {
    await http(svc.url, '/stocks/AGTL/historical'); // the raw history is cached
    portal.fail({ mode: 'down', path: '/timeseries/eod/AGTL' });
    const res = await http(svc.url, '/stocks/AGTL/historical?adjusted=true');
    assert.equal(res.status, 200);
    assert.ok(res.json.data.every((r: { adjustment_factor: unknown }) => r.adjustment_factor === null));
    assert.equal(res.json.meta.adjustment.status, 'unavailable');
    assert.match(res.json.meta.missing[0].reason, /could not be reached/);
  });
});

// Last: the rankings read every member's adjusted series into the shared service's cache.
describe('adjusted only where applied', () => {
  it('says adjusted: false where no adjustment was applied, and rankings name the raw members', async () => {
    const perf = await http(svc.url, '/stocks/786R/performance?benchmark=none');
    assert.equal(perf.status, 200, perf.text);
    assert.equal(perf.json.meta.adjustment.status, 'unavailable');
    assert.equal(perf.json.data.adjusted, false, 'raw closes are not adjusted');
    const adjustedOne = await http(svc.url, '/stocks/HBL/performance?benchmark=none');
    assert.equal(adjustedOne.json.data.adjusted, true);
    const ranking = await http(svc.url, '/market/performance?sector=0813&period=1M');
    assert.equal(ranking.status, 200, ranking.text);
    const rows = ranking.json.data as Array<{ symbol: string; adjusted: boolean }>;
    assert.equal(rows.find((r) => r.symbol === '786R')?.adjusted, false);
    assert.equal(rows.find((r) => r.symbol === '786')?.adjusted, true);
    const raw = ranking.json.meta.coverage.raw as Array<{ symbol: string; reason: string }>;
    assert.deepEqual(
      raw.map((r) => r.symbol),
      rows.filter((r) => !r.adjusted).map((r) => r.symbol),
    );
    assert.match(raw.find((r) => r.symbol === '786R')!.reason, /no adjusted series for 786R/);
    const sectors = await http(svc.url, '/sectors/performance?period=1M');
    assert.ok(
      (sectors.json.meta.coverage.raw as Array<{ symbol: string }>).some((r) => r.symbol === '786R'),
      'the sector ranking names its raw members too',
    );
  });
});
