// The fake portal: a real HTTP server on 127.0.0.1 serving the dataset in the portal's page
// structures, behind the same gate as the real portal, with request counting and
// failure injection for tests, demos and benchmarks. `/__fake/*` is an ungated control API for
// tests that run the portal in another process.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { renderCompanyPage } from './company.ts';
import { renderEod, renderPayouts } from './corporate-actions.ts';
import { isMarketOpen, karachiDate, sessionsOfDay } from '../../src/time/market-clock.ts';
import { AS_OF_DATE, createDataset, defaultAsOfTime, type Dataset } from './dataset.ts';
import { renderFeed } from './feeds.ts';
import { createMarketMotion, type MarketMotion } from './intraday.ts';
import {
  renderErrorPage,
  renderGarbagePage,
  renderHistorical,
  renderHomePage,
  renderIndexConstituents,
  renderIndicesPage,
  renderMarketWatch,
  renderNotFoundPage,
  renderReports,
  renderScreenerPage,
  renderSectorSummary,
  renderSymbolsJson,
} from './pages.ts';

export type FailureMode = 'down' | 'slow' | 'status' | 'garbage' | 'refuse-token';

export interface FailureRule {
  mode: FailureMode;
  /** For `status`: the status to answer (500, 502, 503, 429, …); default 503. */
  status?: number;
  /** For `slow`: added delay per response; default 1000 ms. */
  delayMs?: number;
  /** Only requests whose path starts with this prefix (e.g. `/historical`); default every path. */
  path?: string;
  /** Apply to this many matching requests, then drop the rule; default unlimited. */
  times?: number;
}

export interface FakePortalOptions {
  /** Default 0 (an ephemeral port). The server listens on 127.0.0.1 only. */
  port?: number;
  /** Always-on latency added to every portal response (not the control API). */
  delayMs?: number;
  extraSymbols?: number;
  historyRows?: number;
  /** Dataset seed; the default gives the documented values. */
  seed?: number;
  /** Rotate the token every N ms (the real portal: about 5 minutes); default never. */
  tokenRotateMs?: number;
  /** Seed of the deterministic token sequence; two portals with the same seed issue the same tokens. */
  tokenSeed?: string;
  /** Byte budget of the rendered-page cache; default 128 MiB. */
  cacheBytes?: number;
  /** Move the market watch every N ms (intraday.ts); default never (tests call `tick()`). */
  tickMs?: number;
  /**
   * The portal's clock (epoch ms). Its market is the Karachi trading day of this clock when the
   * portal starts: the day of the latest session open at or before it (Thursday 02:17 → Wednesday;
   * a weekend → Friday), with history, boards, intraday and the `As of …` line on that day and no
   * print after the clock or the close. With a clock given, `tickMs` moves the market only during
   * a session. Default: a fixed clock at Fri 2026-11-20 16:35 Karachi (AS_OF_DATE, after the close),
   * the day every test's expectations are written for.
   */
  now?: () => number;
}

export type GateRejection = 'user-agent' | 'origin' | 'x-requested-with' | 'token' | 'refuse-token';

export interface FakePortalCounts {
  /** Portal requests received (control API excluded), whatever their outcome. */
  total: number;
  /** Per `METHOD path`, e.g. `GET /`, `POST /historical`, `GET /indices/KSE100`. */
  requests: Record<string, number>;
  /** `POST /historical` per requested symbol (as sent). */
  historical: Record<string, number>;
  /** Requests the gate refused, by reason. */
  rejected: Partial<Record<GateRejection, number>>;
  /** Requests a failure rule answered, by mode. */
  injected: Partial<Record<FailureMode, number>>;
}

export interface FakePortal {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly dataset: Dataset;
  /** The currently valid token. */
  token(): string;
  /** Issues a new token; the old one stops working at once. Returns the new token. */
  rotateToken(): string;
  counts(): FakePortalCounts;
  resetCounts(): void;
  /** Adds a failure rule; the most recently added matching rule wins (slow rules add up). */
  fail(rule: FailureRule): void;
  /** Removes every failure rule. */
  clear(): void;
  /** The moving market layer: `motion.tick()` moves market-watch prices (intraday.ts). */
  readonly motion: MarketMotion;
  close(): Promise<void>;
}

const MODES: readonly FailureMode[] = ['down', 'slow', 'status', 'garbage', 'refuse-token'];
const PORTAL_ORIGIN = 'https://dps.psx.com.pk';
const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const TOKEN_MARK = '\u0000FAKE_PORTAL_TOKEN\u0000';
const MAX_BODY = 1 << 20;

/** Validates a rule from the control API or a test; throws on anything malformed. */
export function parseFailureRule(input: unknown): FailureRule {
  if (typeof input !== 'object' || input === null) throw new Error('rule must be an object');
  const o = input as Record<string, unknown>;
  if (typeof o.mode !== 'string' || !MODES.includes(o.mode as FailureMode)) {
    throw new Error(`mode must be one of ${MODES.join(', ')}`);
  }
  const rule: FailureRule = { mode: o.mode as FailureMode };
  if (o.status !== undefined) {
    if (typeof o.status !== 'number' || !Number.isInteger(o.status) || o.status < 400 || o.status > 599) {
      throw new Error('status must be an integer 400-599');
    }
    rule.status = o.status;
  }
  if (o.delayMs !== undefined) {
    if (typeof o.delayMs !== 'number' || !(o.delayMs >= 0)) throw new Error('delayMs must be a number >= 0');
    rule.delayMs = o.delayMs;
  }
  if (o.path !== undefined && o.path !== null) {
    if (typeof o.path !== 'string' || !o.path.startsWith('/')) throw new Error('path must start with /');
    rule.path = o.path;
  }
  if (o.times !== undefined && o.times !== null) {
    if (typeof o.times !== 'number' || !Number.isInteger(o.times) || o.times < 1) {
      throw new Error('times must be a positive integer');
    }
    rule.times = o.times;
  }
  return rule;
}

/** Token number n of a seed: 32 bytes as base64url, 43 characters like the portal's `_k`. */
export function makeToken(seed: string, n: number): string {
  return createHash('sha256').update(`${seed}:${n}`).digest('base64url');
}

interface Page {
  status: number;
  type: string;
  /** Body bytes; with two parts the current token goes between them. */
  parts: Buffer[];
  bytes: number;
}

function page(status: number, type: string, text: string): Page {
  const parts = text.split(TOKEN_MARK).map((p) => Buffer.from(p, 'utf8'));
  return { status, type, parts, bytes: parts.reduce((n, b) => n + b.length, 0) };
}

/** Rendered pages by key, least recently used evicted past a byte budget (1,000 histories do not fit). */
class PageCache {
  private readonly pages = new Map<string, Page>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  get(key: string, render: () => Page): Page {
    const hit = this.pages.get(key);
    if (hit) {
      this.pages.delete(key);
      this.pages.set(key, hit);
      return hit;
    }
    const fresh = render();
    this.pages.set(key, fresh);
    this.bytes += fresh.bytes;
    for (const [k, p] of this.pages) {
      if (this.bytes <= this.budget || k === key) break;
      this.pages.delete(k);
      this.bytes -= p.bytes;
    }
    return fresh;
  }
}

interface MutableCounts {
  total: number;
  requests: Map<string, number>;
  historical: Map<string, number>;
  rejected: Map<GateRejection, number>;
  injected: Map<FailureMode, number>;
}

function emptyCounts(): MutableCounts {
  return { total: 0, requests: new Map(), historical: new Map(), rejected: new Map(), injected: new Map() };
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const DEFAULT_CLOCK_MS = Date.parse(`${AS_OF_DATE}T${defaultAsOfTime(AS_OF_DATE)}:00+05:00`);

/**
 * The trading day a clock's market shows (the day of the latest session open at or before it) and
 * the boards' `As of` time on it: the clock's minute during the day, five minutes past the last
 * close once it has closed.
 */
export function marketDayOf(nowMs: number): { date: string; time: string } {
  const lastOpen = previousSessionOpen(nowMs);
  const date = karachiDate(lastOpen);
  const closes = sessionsOfDay(lastOpen);
  const lastClose = closes[closes.length - 1]!.close;
  if (nowMs >= lastClose) return { date, time: defaultAsOfTime(date) };
  const minutes = Math.floor((nowMs + 5 * 3_600_000 - Date.parse(`${date}T00:00:00Z`)) / 60_000);
  return {
    date,
    time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
  };
}

/** The latest session open at or before `ms`. */
function previousSessionOpen(ms: number): number {
  for (let day = ms; ; day -= 86_400_000) {
    const opens = sessionsOfDay(day)
      .map((s) => s.open)
      .filter((open) => open <= ms);
    if (opens.length > 0) return opens[opens.length - 1]!;
  }
}

export async function startFakePortal(options: FakePortalOptions = {}): Promise<FakePortal> {
  const now = options.now ?? (() => DEFAULT_CLOCK_MS);
  const day = marketDayOf(now());
  const dataset = createDataset({
    seed: options.seed,
    extraSymbols: options.extraSymbols,
    historyRows: options.historyRows,
    asOfDate: day.date,
    asOfTime: day.time,
  });
  const tokenSeed = options.tokenSeed ?? 'fake-portal';
  const baseDelay = Math.max(0, options.delayMs ?? 0);
  const cache = new PageCache(options.cacheBytes ?? 128 * 1024 * 1024);
  let tokenNumber = 0;
  let currentToken = makeToken(tokenSeed, tokenNumber);
  let rules: FailureRule[] = [];
  let counts = emptyCounts();
  let ownOrigin = '';
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const motion = createMarketMotion(dataset, now);
  const clocked = options.now !== undefined;
  const ticking =
    options.tickMs && options.tickMs > 0
      ? setInterval(() => {
          if (!clocked || isMarketOpen(now())) motion.tick();
        }, options.tickMs)
      : null;
  ticking?.unref();

  const rotateToken = (): string => {
    tokenNumber += 1;
    currentToken = makeToken(tokenSeed, tokenNumber);
    return currentToken;
  };
  const rotation =
    options.tokenRotateMs && options.tokenRotateMs > 0
      ? setInterval(rotateToken, options.tokenRotateMs)
      : null;
  rotation?.unref();

  const html = (key: string, status: number, render: () => string): Page =>
    cache.get(key, () => page(status, HTML, render()));
  const notFound = (path: string, status: number): Page =>
    html(`notfound:${status}:${path}`, status, () => renderNotFoundPage(dataset, TOKEN_MARK, path));

  function route(method: string, path: string, form: URLSearchParams): Page {
    if (method === 'GET') {
      if (path === '/') return html('home', 200, () => renderHomePage(dataset, TOKEN_MARK));
      if (path === '/symbols')
        return cache.get('symbols', () => page(200, JSON_TYPE, renderSymbolsJson(dataset)));
      if (path === '/screener') return html('screener', 200, () => renderScreenerPage(dataset, TOKEN_MARK));
      if (path === '/market-watch')
        return html(`market-watch:${motion.step}`, 200, () => renderMarketWatch(motion.view()));
      const series = /^\/timeseries\/(int|eod)\/([^/]+)$/.exec(path);
      if (series) {
        const code = decodeURIComponent(series[2] as string);
        const json = series[1] === 'int' ? motion.intradayJson(code) : motion.indexEodJson(code);
        if (json !== null)
          return cache.get(`${series[1]}:${code}:${motion.step}`, () => page(200, JSON_TYPE, json));
      }
      if (path === '/indices') return html('indices', 200, () => renderIndicesPage(dataset, TOKEN_MARK));
      if (path === '/sector-summary/sectorwise')
        return html('sectors', 200, () => renderSectorSummary(dataset));
      const index = /^\/indices\/([^/]+)$/.exec(path);
      if (index) {
        const code = decodeURIComponent(index[1] as string);
        // Unknown index: the generic Not Found page (HTTP 200), never an empty constituents table.
        return cache.get(`index:${code}`, () => {
          const body = renderIndexConstituents(dataset, code);
          return page(200, HTML, body ?? renderNotFoundPage(dataset, TOKEN_MARK, path));
        });
      }
      const company = /^\/company\/([^/]+)$/.exec(path);
      if (company) {
        const symbol = decodeURIComponent(company[1] as string);
        return html(
          `company:${symbol}`,
          200,
          () =>
            renderCompanyPage(dataset, symbol, TOKEN_MARK) ?? renderNotFoundPage(dataset, TOKEN_MARK, path),
        );
      }
      const reports = /^\/company\/reports\/([^/]+)$/.exec(path);
      if (reports) {
        const symbol = decodeURIComponent(reports[1] as string);
        return cache.get(`reports:${symbol}`, () => {
          const body = renderReports(dataset, symbol);
          return page(200, HTML, body ?? renderNotFoundPage(dataset, TOKEN_MARK, path));
        });
      }
    }
    const eod = method === 'GET' ? /^\/timeseries\/eod\/([^/]+)$/.exec(path) : null;
    if (eod) {
      const symbol = decodeURIComponent(eod[1] as string);
      return cache.get(`eod:${symbol}`, () => page(200, JSON_TYPE, renderEod(dataset, symbol)));
    }
    if (method === 'POST' && path === '/company/payouts') {
      const symbol = form.get('symbol') ?? '';
      return html(`payouts:${symbol}`, 200, () => renderPayouts(symbol));
    }
    if (method === 'POST' && path === '/historical') {
      // The portal ignores the date fields and returns the symbol's whole history.
      const symbol = form.get('symbol') ?? '';
      return html(`historical:${symbol}`, 200, () => renderHistorical(dataset, symbol));
    }
    const feed = renderFeed(dataset, method, path, form);
    if (feed) return page(feed.status, feed.type === 'json' ? JSON_TYPE : HTML, feed.text);
    return notFound(path, 404);
  }

  function gate(req: IncomingMessage): { status: number; reason: GateRejection } | null {
    if (!(header(req, 'user-agent') ?? '').includes('Mozilla/')) return { status: 404, reason: 'user-agent' };
    const origin = header(req, 'origin');
    if (origin !== undefined && origin !== PORTAL_ORIGIN && origin !== ownOrigin) {
      return { status: 403, reason: 'origin' };
    }
    if (header(req, 'x-requested-with') !== 'XMLHttpRequest')
      return { status: 403, reason: 'x-requested-with' };
    if (header(req, 'x-req-id') !== currentToken) return { status: 403, reason: 'token' };
    return null;
  }

  /** The most recent matching non-slow rule, and the summed delay of matching slow rules. */
  function applyRules(path: string, isData: boolean): { rule: FailureRule | null; delay: number } {
    let delay = 0;
    let rule: FailureRule | null = null;
    const used: FailureRule[] = [];
    for (let i = rules.length - 1; i >= 0; i--) {
      const r = rules[i] as FailureRule;
      if (r.path !== undefined && !path.startsWith(r.path)) continue;
      if (r.mode === 'slow') {
        delay += r.delayMs ?? 1000;
        used.push(r);
      } else if (rule === null && (r.mode !== 'refuse-token' || isData)) {
        rule = r;
        used.push(r);
      }
    }
    for (const r of used) {
      if (r.times === undefined) continue;
      r.times -= 1;
      if (r.times <= 0) rules = rules.filter((x) => x !== r);
    }
    return { rule, delay };
  }

  /**
   * Writes `p` once `delay` ms have passed since the request arrived (`arrivedAt`, performance.now()):
   * a page delay is the time a client waits, rendering included, as with the real portal; counted
   * from after rendering, a busy machine made a 300 ms page arrive 350 ms after it was asked for.
   */
  function send(res: ServerResponse, p: Page, delay: number, arrivedAt: number): void {
    const write = (): void => {
      if (res.destroyed || res.writableEnded) return;
      const tokenBytes = p.parts.length > 1 ? Buffer.from(currentToken, 'utf8') : null;
      const length = p.bytes + (tokenBytes ? tokenBytes.length * (p.parts.length - 1) : 0);
      res.writeHead(p.status, {
        'Content-Type': p.type,
        'Content-Length': length,
        'Cache-Control': 'no-store',
      });
      p.parts.forEach((part, i) => {
        if (i > 0 && tokenBytes) res.write(tokenBytes);
        res.write(part);
      });
      res.end();
    };
    const wait = delay - (performance.now() - arrivedAt);
    if (wait <= 0) {
      write();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      write();
    }, wait);
    timers.add(timer);
  }

  async function handlePortal(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const arrivedAt = performance.now();
    const method = req.method ?? 'GET';
    const isData = !(method === 'GET' && path === '/');
    counts.total += 1;
    bump(counts.requests, `${method} ${path}`);

    const { rule, delay } = applyRules(path, isData);
    if (rule?.mode === 'down') {
      // Accept, then drop the connection without answering: the client sees a socket error.
      bump(counts.injected, 'down');
      req.socket.destroy();
      return;
    }
    const body = await readBody(req);
    const form = new URLSearchParams(method === 'POST' ? body : '');
    if (method === 'POST' && path === '/historical') bump(counts.historical, form.get('symbol') ?? '');

    const totalDelay = baseDelay + delay;
    if (rule) {
      bump(counts.injected, rule.mode);
      if (rule.mode === 'status') {
        const status = rule.status ?? 503;
        send(res, page(status, HTML, renderErrorPage(status)), totalDelay, arrivedAt);
        return;
      }
      if (rule.mode === 'garbage') {
        send(res, html('garbage', 200, renderGarbagePage), totalDelay, arrivedAt);
        return;
      }
      if (rule.mode === 'refuse-token') {
        bump(counts.rejected, 'refuse-token');
        send(res, page(403, HTML, renderErrorPage(403)), totalDelay, arrivedAt);
        return;
      }
    }
    if (isData) {
      const refused = gate(req);
      if (refused) {
        bump(counts.rejected, refused.reason);
        send(res, page(refused.status, HTML, renderErrorPage(refused.status)), totalDelay, arrivedAt);
        return;
      }
    }
    send(res, route(method, path, form), totalDelay, arrivedAt);
  }

  const snapshot = (): FakePortalCounts => ({
    total: counts.total,
    requests: Object.fromEntries(counts.requests),
    historical: Object.fromEntries(counts.historical),
    rejected: Object.fromEntries(counts.rejected),
    injected: Object.fromEntries(counts.injected),
  });

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const reply = (status: number, value: unknown): void => {
      const text = JSON.stringify(value);
      res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
    const key = `${method} ${path}`;
    if (key === 'GET /__fake/counts') return reply(200, snapshot());
    if (key === 'GET /__fake/token') return reply(200, { token: currentToken });
    if (key === 'POST /__fake/reset') {
      counts = emptyCounts();
      return reply(200, { ok: true });
    }
    if (key === 'POST /__fake/clear') {
      rules = [];
      return reply(200, { ok: true });
    }
    if (key === 'POST /__fake/rotate-token') return reply(200, { token: rotateToken() });
    if (key === 'POST /__fake/tick') {
      let symbols: unknown;
      try {
        symbols = (JSON.parse(body || '{}') as { symbols?: unknown }).symbols;
      } catch {
        return reply(400, { error: 'body must be JSON {symbols?: string[]}' });
      }
      if (symbols !== undefined && !(Array.isArray(symbols) && symbols.every((x) => typeof x === 'string'))) {
        return reply(400, { error: 'symbols must be an array of strings' });
      }
      return reply(200, motion.tick(symbols as string[] | undefined));
    }
    if (key === 'POST /__fake/fail') {
      try {
        rules.push(parseFailureRule(JSON.parse(body || 'null')));
      } catch (err) {
        return reply(400, { error: (err as Error).message });
      }
      return reply(200, { ok: true, rules: rules.length });
    }
    return reply(404, { error: `unknown control endpoint ${key}` });
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const handler = path.startsWith('/__fake/') ? handleControl : handlePortal;
    handler(req, res, path).catch(() => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'Content-Type': HTML });
        res.end(renderErrorPage(500));
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  ownOrigin = url;

  return {
    url,
    port,
    dataset,
    token: () => currentToken,
    rotateToken,
    counts: snapshot,
    resetCounts: () => {
      counts = emptyCounts();
    },
    fail: (rule) => {
      rules.push(parseFailureRule(rule));
    },
    clear: () => {
      rules = [];
    },
    motion,
    close: () =>
      new Promise<void>((resolve) => {
        if (rotation) clearInterval(rotation);
        if (ticking) clearInterval(ticking);
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
