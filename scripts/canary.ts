// `npm run canary`: one page of each kind the service reads, fetched from EXCHANGE_BASE_URL (default
// the real portal) through the service's own exchange client, token and portal budget, and parsed
// by the service's parsers. Prints a table and exits 0 only when every kind is ok: for operators to
// run from cron, so a changed page is noticed before a user sees its nulls (docs/operations.md).
//
// One request per kind plus the token page, never a retry (not on 5xx, not on 403), paced to the
// global portal budget (EXCHANGE_FETCH_LIMIT_GLOBAL a minute: 60 gives one request a second). The
// daily closing file is the latest weekday's before today: a day answered with the portal's
// no-session page (a holiday) is stepped back over, at most FILE_TRIES requests in all.
// CANARY_NOW (an ISO 8601 instant) sets the clock that picks the days; default the machine's.
//
// Exit status: 0 every kind ok; 1 a page changed or failing (its fields named); 2 a page could not
// be checked (the portal unreachable, refusing or rate-limiting) and none drifted.
import { loadConfig } from '../src/config.ts';
import { ExchangeClient, type PortalRequest } from '../src/exchange/client.ts';
import type { PageState } from '../src/exchange/page-health.ts';
import { DAILY_FILE_FIELDS } from '../src/exchange/parsers/daily-file.ts';
import {
  parseAnnouncements,
  parseCalendar,
  parseCompany,
  parseDebtMarket,
  parseEligibleScrips,
  parseEod,
  parseHistory,
  parseIndexConstituents,
  parseIndexLevels,
  parseIndexSeries,
  parseIntraday,
  parseMarketPayouts,
  parseMarketWatch,
  parsePayouts,
  parseReports,
  parseScreener,
  parseSectorSummary,
  parseSymbols,
  parseTradingBoard,
} from '../src/exchange/parsers/index.ts';
import type { PageKind } from '../src/exchange/types.ts';
import { PortalBudget } from '../src/limits/portal-budget.ts';
import { MemoryWindowCounter } from '../src/limits/window-counter.ts';
import { addDays, parseIsoDay, weekdayOf } from '../src/time/karachi.ts';
import { karachiDate } from '../src/time/market-clock.ts';

interface Probe {
  req: PortalRequest;
  parse: (text: string) => unknown;
}

/** One page of each kind: a liquid symbol, the main index, the last month of the market-wide lists. */
function probes(symbol: string, index: string, today: string): Probe[] {
  const monthAgo = addDays(today, -30);
  const [year, month] = today.split('-') as [string, string];
  const sym = encodeURIComponent(symbol);
  const get = (kind: PageKind, path: string, parse: Probe['parse']): Probe => ({
    req: { kind, method: 'GET', path },
    parse,
  });
  const post = (
    kind: PageKind,
    path: string,
    form: Record<string, string>,
    parse: Probe['parse'],
  ): Probe => ({
    req: { kind, method: 'POST', path, form },
    parse,
  });
  return [
    get('symbols', '/symbols', parseSymbols),
    get('screener', '/screener', parseScreener),
    get('market-watch', '/market-watch', parseMarketWatch),
    get('index-constituents', `/indices/${index}`, parseIndexConstituents),
    get('index-levels', '/indices', parseIndexLevels),
    get('sector-summary', '/sector-summary/sectorwise', parseSectorSummary),
    // One month, as the service's daily refresh asks: the whole history is thousands of rows.
    post('history', '/historical', { symbol, month: String(Number(month)), year }, parseHistory),
    get('reports', `/company/reports/${sym}`, (html) => parseReports(html, symbol)),
    get('company', `/company/${sym}`, parseCompany),
    get('eod', `/timeseries/eod/${sym}`, parseEod),
    post('payouts', '/company/payouts', { symbol }, parsePayouts),
    get('intraday', `/timeseries/int/${sym}`, parseIntraday),
    get('index-series', `/timeseries/eod/${index}`, parseIndexSeries),
    post(
      'market-payouts',
      '/payouts',
      { symbol: '', count: '25', offset: '0', date_from: monthAgo, date_to: today },
      parseMarketPayouts,
    ),
    post('calendar', '/calendar', { from: today, to: addDays(today, 30) }, parseCalendar),
    post(
      'announcements',
      '/announcements',
      {
        type: 'C',
        symbol: '',
        query: '',
        count: '25',
        offset: '0',
        date_from: monthAgo,
        date_to: today,
        page: 'annc',
      },
      parseAnnouncements,
    ),
    get('debt-market', '/debt-market', parseDebtMarket),
    get('trading-board', '/trading-board/FUT/fut', parseTradingBoard),
    get('eligible-scrips', '/eligible-scrips', parseEligibleScrips),
  ];
}

/**
 * Requests for the closing file at most: the latest weekday before today and, over holidays, the
 * ones before it (the longest closures, Eid, run to about four weekdays).
 */
const FILE_TRIES = 6;

/** What the canary found for one kind; `unreachable`: the portal did not let it look. */
interface Finding {
  page: PageKind;
  request: string;
  status: number | null;
  rows: number | null;
  expected: number;
  missing: readonly string[];
  state: PageState | 'unreachable';
  detail: string | null;
}

/** Rows of a parsed page: a list's length, a page's `rows` or `sectors`, one for a company page. */
function rowsOf(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) return value.length;
  const o = value as Record<string, unknown>;
  for (const key of ['rows', 'sectors', 'ticks']) {
    const list = o[key];
    if (Array.isArray(list)) return list.length;
  }
  return 1;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function statusOf(err: unknown): number | null {
  const status = (err as { upstreamStatus?: unknown }).upstreamStatus;
  if (typeof status === 'number') return status;
  const m = /answered (\d{3})/.exec(describe(err));
  return m === null ? null : Number(m[1]);
}

function table(findings: readonly Finding[]): string {
  const head = ['page', 'request', 'http', 'rows', 'fields', 'missing', 'state'];
  const lines = findings.map((f) => [
    f.page,
    f.request,
    f.status === null ? '-' : String(f.status),
    f.rows === null ? '-' : String(f.rows),
    f.expected === 0 ? '-' : `${f.expected - f.missing.length}/${f.expected}`,
    f.missing.length === 0 ? '-' : f.missing.join(', '),
    f.state,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const row = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [row(head), row(widths.map((w) => '-'.repeat(w))), ...lines.map(row)].join('\n');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The finding for a request that threw: drift the client recorded just now, or a portal that did not answer. */
function failedFinding(client: ExchangeClient, page: PageKind, request: string, err: unknown): Finding {
  const health = client.health.get(page);
  // Parsed and refused now (the client recorded it), or never reached the parser.
  const parsedNow =
    (health.state === 'failing' || health.state === 'changed') && health.detail === describe(err);
  return {
    page,
    request,
    status: parsedNow ? (statusOf(err) ?? 200) : statusOf(err),
    rows: null,
    // A closing file refused for its layout names the fields it looked for; a page that failed, none.
    expected: parsedNow && page === 'daily-file' ? DAILY_FILE_FIELDS.length : 0,
    missing: parsedNow ? health.missingFields : [],
    state: parsedNow ? health.state : 'unreachable',
    detail: describe(err),
  };
}

/** The clock that picks the days: CANARY_NOW when set (an ISO 8601 instant), else the machine's. */
function clock(): () => number {
  const at = process.env.CANARY_NOW?.trim();
  if (!at) return () => Date.now();
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) throw new Error(`CANARY_NOW is not an ISO 8601 instant: ${at}`);
  return () => ms;
}

/** The latest weekday's closing file before `today`, stepping back over no-session days. */
async function checkDailyFile(
  client: ExchangeClient,
  paced: <T>(send: () => Promise<T>) => Promise<T>,
  today: string,
): Promise<Finding> {
  let day = today;
  let request = '';
  for (let tries = 0; tries < FILE_TRIES; tries++) {
    do day = addDays(day, -1);
    while ([0, 6].includes(weekdayOf(parseIsoDay(day))));
    const date = day;
    request = `GET /download/mkt_summary/${date}.Z`;
    try {
      const got = await paced(() => client.fetchDailyFile(date));
      if (!got.found) continue;
      const health = client.health.get('daily-file');
      return {
        page: 'daily-file',
        request,
        status: 200,
        rows: got.file.rows.length,
        expected: got.fields.expected.length,
        missing: got.fields.missing,
        state: health.state,
        detail: health.detail,
      };
    } catch (err) {
      return failedFinding(client, 'daily-file', request, err);
    }
  }
  return {
    page: 'daily-file',
    request,
    status: 404,
    rows: null,
    expected: 0,
    missing: [],
    state: 'unreachable',
    detail: `the ${FILE_TRIES} weekdays before ${today} each answered the no-session page`,
  };
}

async function main(): Promise<number> {
  const config = loadConfig();
  const now = clock();
  const json = process.argv.includes('--json');
  const symbol = (process.env.CANARY_SYMBOL?.trim() || 'HBL').toUpperCase();
  const index = (process.env.CANARY_INDEX?.trim() || 'KSE100').toUpperCase();
  const global = config.budget.fetchesGlobalPerMinute;
  const spacingMs = global > 0 ? Math.ceil(60_000 / global) : 0;
  const client = new ExchangeClient({
    baseUrl: config.exchangeBaseUrl,
    ...config.exchange,
    maxRetries: 0,
    retryForbidden: false,
    // The token page is asked once: without a token the pages go out without one (fail open).
    tokenRetryAfterFailureMs: 3_600_000,
    now: () => Date.now(),
  });
  const budget = new PortalBudget(new MemoryWindowCounter(() => Date.now()), {
    perIp: 0,
    global,
    proxyPerIp: 0,
    proxyMaxInFlight: 0,
  });
  const requester = { clientIp: 'canary' };

  let lastSent = 0;
  const paced = async <T>(send: () => Promise<T>): Promise<T> => {
    const wait = lastSent + spacingMs - Date.now();
    if (wait > 0) await sleep(wait);
    lastSent = Date.now();
    const release = await budget.admit(requester);
    try {
      return await send();
    } finally {
      release();
    }
  };

  const findings: Finding[] = [];
  try {
    await paced(() => client.prepareToken());
    const token = client.health.get('token');
    findings.push({
      page: 'token',
      request: 'GET /',
      status: token.state === 'unknown' ? null : 200,
      rows: null,
      expected: 1,
      missing: token.missingFields,
      state: token.state === 'unknown' ? 'unreachable' : token.state,
      detail: token.state === 'unknown' ? 'the home page did not answer 200' : token.detail,
    });
  } catch (err) {
    findings.push({
      page: 'token',
      request: 'GET /',
      status: statusOf(err),
      rows: null,
      expected: 1,
      missing: [],
      state: 'unreachable',
      detail: describe(err),
    });
  }

  const today = karachiDate(now());
  for (const { req, parse } of probes(symbol, index, today)) {
    const request = `${req.method} ${req.path}`;
    try {
      const page = await paced(() => client.fetchParsed(req, parse));
      const health = client.health.get(req.kind);
      findings.push({
        page: req.kind,
        request,
        status: page.status,
        rows: rowsOf(page.value),
        expected: page.fields.expected.length,
        missing: page.fields.missing,
        state: health.state,
        detail: health.detail,
      });
    } catch (err) {
      findings.push(failedFinding(client, req.kind, request, err));
    }
  }
  findings.push(await checkDailyFile(client, paced, today));
  await client.close();

  const drifted = findings.filter((f) => f.state === 'changed' || f.state === 'failing');
  const unreachable = findings.filter((f) => f.state === 'unreachable');
  if (json) {
    process.stdout.write(`${JSON.stringify({ portal: config.exchangeBaseUrl, pages: findings }, null, 2)}\n`);
  } else {
    process.stdout.write(`portal ${config.exchangeBaseUrl}, symbol ${symbol}, index ${index}\n\n`);
    process.stdout.write(`${table(findings)}\n`);
  }
  for (const f of [...drifted, ...unreachable]) {
    const fields = f.missing.length > 0 ? `; missing ${f.missing.map((m) => `"${m}"`).join(', ')}` : '';
    process.stderr.write(`canary: ${f.page} (${f.request}) is ${f.state}${fields}: ${f.detail ?? ''}\n`);
  }
  if (drifted.length > 0) return 1;
  if (unreachable.length > 0) return 2;
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`canary: ${describe(err)}\n`);
    process.exitCode = 2;
  },
);
