// The fake portal: a real HTTP server on 127.0.0.1 serving the dataset in the portal's page
// structures, behind the same gate as the real portal, with request counting and
// failure injection for tests, demos and benchmarks. `/__fake/*` is an ungated control API for
// tests that run the portal in another process. The pieces: which page answers (routes.ts), the
// gate and tokens (gate.ts), failure rules (failures.ts), rendered pages and their cache
// (page-cache.ts), the control API (control.ts) and the portal's day (portal-clock.ts); this file
// counts, delays and wires them to one server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isMarketOpen } from '../../src/time/market-clock.ts';
import { handleControl } from './control.ts';
import { createDataset, type Dataset } from './dataset.ts';
import { DriftRules, parseDriftRule, type DriftRule } from './drift.ts';
import { FailureRules, parseFailureRule, type FailureMode, type FailureRule } from './failures.ts';
import { RateGate } from './rate-gate.ts';
import { downloadRefusal, gateRefusal, makeToken, readBody, type GateRejection } from './gate.ts';
import { createMarketMotion, type MarketMotion } from './intraday.ts';
import { HTML, page, PageCache, writePage, type Page } from './page-cache.ts';
import { renderErrorPage, renderGarbagePage } from './pages.ts';
import { DEFAULT_CLOCK_MS, marketDayOf } from './portal-clock.ts';
import { createRouter } from './routes.ts';

export { type FailureMode, type FailureRule } from './failures.ts';
export { type DriftRule } from './drift.ts';
export { type GateRejection } from './gate.ts';

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
  /** Answer 429 to data requests beyond this many in any 60 s (rate-gate.ts); default no limit. */
  requestsPerMinute?: number;
}

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
  /** Requests answered 429 for going over `requestsPerMinute`. */
  limited: number;
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
  /** Changes the structure of matching pages (drops a column, removes the tables) until restored. */
  drift(rule: DriftRule): void;
  /** Serves the pages of `path` (as given to drift), or every page, as they were. */
  restore(path?: string): void;
  /** The moving market layer: `motion.tick()` moves market-watch prices (intraday.ts). */
  readonly motion: MarketMotion;
  close(): Promise<void>;
}

interface MutableCounts {
  total: number;
  requests: Map<string, number>;
  historical: Map<string, number>;
  rejected: Map<GateRejection, number>;
  injected: Map<FailureMode, number>;
  limited: number;
}

function emptyCounts(): MutableCounts {
  return {
    total: 0,
    requests: new Map(),
    historical: new Map(),
    rejected: new Map(),
    injected: new Map(),
    limited: 0,
  };
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
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
  const rules = new FailureRules();
  const drifts = new DriftRules();
  const rateGate = options.requestsPerMinute ? new RateGate(options.requestsPerMinute) : null;
  let counts = emptyCounts();
  let ownOrigin = '';
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const motion = createMarketMotion(dataset, now);
  const route = createRouter(dataset, motion, cache, now);
  const ticking = startTicking(options, motion, now);

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

  const send = (res: ServerResponse, p: Page, delay: number, arrivedAt: number): void =>
    sendAfter(res, p, delay, arrivedAt, () => currentToken, timers);

  async function handlePortal(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const arrivedAt = performance.now();
    const method = req.method ?? 'GET';
    const isData = !(method === 'GET' && path === '/');
    counts.total += 1;
    bump(counts.requests, `${method} ${path}`);

    const { rule, delay } = rules.apply(path, isData);
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
    const injected = rule ? injectedPage(rule, counts, cache) : null;
    if (injected) return send(res, injected, totalDelay, arrivedAt);
    if (isData && rateGate && !rateGate.admit()) {
      counts.limited += 1;
      return send(res, page(429, HTML, renderErrorPage(429)), totalDelay, arrivedAt);
    }
    if (isData) {
      // Downloads carry no token: a browser User-Agent and the portal's Referer instead.
      const refused = path.startsWith('/download/')
        ? downloadRefusal(req, ownOrigin)
        : gateRefusal(req, currentToken, ownOrigin);
      if (refused) {
        bump(counts.rejected, refused.reason);
        return send(res, page(refused.status, HTML, renderErrorPage(refused.status)), totalDelay, arrivedAt);
      }
    }
    send(res, drifts.apply(path, route(method, path, form)), totalDelay, arrivedAt);
  }

  const snapshot = (): FakePortalCounts => snapshotOf(counts);
  const resetCounts = (): void => {
    counts = emptyCounts();
  };
  const fail = (rule: FailureRule): void => rules.add(parseFailureRule(rule));
  const clear = (): void => rules.clear();
  const drift = (rule: DriftRule): void => drifts.add(parseDriftRule(rule));
  const restore = (path?: string): void => drifts.restore(path);
  const controls = {
    drift,
    restore,
    counts: snapshot,
    resetCounts,
    token: () => currentToken,
    rotateToken,
    fail,
    clear,
    ruleCount: () => rules.size,
    tick: (symbols?: string[]) => motion.tick(symbols),
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const handled = path.startsWith('/__fake/')
      ? handleControl(req, res, path, controls)
      : handlePortal(req, res, path);
    handled.catch(() => {
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

  await listen(server, options.port ?? 0);
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
    resetCounts,
    fail,
    clear,
    drift,
    restore,
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

/** The counts as the control API shows them: plain objects, a copy. */
function snapshotOf(counts: MutableCounts): FakePortalCounts {
  return {
    total: counts.total,
    requests: Object.fromEntries(counts.requests),
    historical: Object.fromEntries(counts.historical),
    rejected: Object.fromEntries(counts.rejected),
    injected: Object.fromEntries(counts.injected),
    limited: counts.limited,
  };
}

/** The page a failure rule answers with, or null to go on (`down` is handled before the body is read). */
function injectedPage(rule: FailureRule, counts: MutableCounts, cache: PageCache): Page | null {
  bump(counts.injected, rule.mode);
  if (rule.mode === 'status') {
    const status = rule.status ?? 503;
    return page(status, HTML, renderErrorPage(status));
  }
  if (rule.mode === 'garbage') return cache.get('garbage', () => page(200, HTML, renderGarbagePage()));
  if (rule.mode === 'refuse-token') {
    bump(counts.rejected, 'refuse-token');
    return page(403, HTML, renderErrorPage(403));
  }
  return null;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Writes `p` once `delay` ms have passed since the request arrived (`arrivedAt`, performance.now()):
 * a page delay is the time a client waits, rendering included, as with the real portal; counted
 * from after rendering, a busy machine made a 300 ms page arrive 350 ms after it was asked for.
 */
function sendAfter(
  res: ServerResponse,
  p: Page,
  delay: number,
  arrivedAt: number,
  token: () => string,
  timers: Set<NodeJS.Timeout>,
): void {
  const write = (): void => {
    if (res.destroyed || res.writableEnded) return;
    writePage(res, p, token());
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

/** Moves the market every `tickMs` (with a clock given, only during a session). */
function startTicking(
  options: FakePortalOptions,
  motion: MarketMotion,
  now: () => number,
): NodeJS.Timeout | null {
  if (!options.tickMs || options.tickMs <= 0) return null;
  const clocked = options.now !== undefined;
  const ticking = setInterval(() => {
    if (!clocked || isMarketOpen(now())) motion.tick();
  }, options.tickMs);
  ticking.unref();
  return ticking;
}
