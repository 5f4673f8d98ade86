// The one way the service talks to the portal. It applies the portal's transport rules:
// browser headers, the rotating request token, one token refresh and one retry on
// 403, jittered retries on network errors and 5xx, and a 60 s pause after the portal says 429.
// Every failure leaves here as a typed error from src/errors.ts.
import { Agent, request, type Dispatcher } from 'undici';
import { ExchangeUnavailableError, ServiceError, UpstreamDataError } from '../errors.ts';
import { PageHealth, type PageStateChange } from './page-health.ts';
import { collectFields, type FieldReport } from './parsers/columns.ts';
import { decodeDailyFile, parseDailyFile, type DailyFileContainer } from './parsers/daily-file.ts';
import { parseToken } from './parsers/token.ts';
import { TokenStore } from './token.ts';
import type { DailyFile, PageKind } from './types.ts';

export interface PortalRequest {
  kind: PageKind;
  method: 'GET' | 'POST';
  path: string;
  /** Sent as application/x-www-form-urlencoded (POST /historical). */
  form?: Record<string, string>;
}

/** How one fetch is routed: directly (the default) or through a caller's proxy. */
export interface Route {
  /** Token scope: tokens may be tied to the client IP, so each route keeps its own. */
  scope: string;
  dispatcher: Dispatcher;
  /** Turns a connection-level failure into the error the caller should see (e.g. proxy_unreachable). */
  mapNetworkError?: (err: unknown) => ServiceError | undefined;
}

export type FetchOutcome = 'ok' | 'network_error' | 'http_403' | 'http_429' | 'http_5xx' | 'http_other';

export interface ExchangeClientOptions {
  baseUrl: string;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  tokenMaxAgeMs: number;
  cooldownAfter429Ms: number;
  /** On a 403, refresh the token and try once more (default true; the canary sends each request once). */
  retryForbidden?: boolean;
  /** After a home page without a token, ask again no sooner than this (default 5 s). */
  tokenRetryAfterFailureMs?: number;
  /** The service's clock (epoch ms). */
  now: () => number;
  /** Called once per HTTP exchange with the portal (metrics, logs). */
  onFetch?: (kind: PageKind, outcome: FetchOutcome, ms: number) => void;
  onTokenRefresh?: (scope: string, ok: boolean) => void;
  /** A page kind's drift state changed (page-health.ts): the service logs it. */
  onPageState?: (change: PageStateChange) => void;
}

/** One answer of the portal as it came: its status, content type and body (text, or bytes for a file). */
interface RawAnswer<B> {
  status: number;
  contentType: string;
  body: B;
}

/** A daily closing file fetched and read, or the portal's no-session page (`found: false`). */
export type DailyFileFetch =
  | {
      found: true;
      container: DailyFileContainer;
      file: DailyFile;
      /** The layout's fields (daily-file.ts DAILY_FILE_COLUMNS) and those its skipped lines stopped at. */
      fields: FieldReport;
    }
  | { found: false };

/** A page fetched and parsed: the parser's value, the page's HTTP status and the fields it lacked. */
export interface ParsedPage<T> {
  value: T;
  status: number;
  fields: FieldReport;
}

// The portal answers 404 to non-browser agents (undici's default included).
/** Pages the portal answers as JSON; the browser asks for those with a JSON Accept. */
const JSON_KINDS: ReadonlySet<PageKind> = new Set<PageKind>([
  'symbols',
  'eod',
  'intraday',
  'index-series',
  'calendar',
]);

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export class ExchangeClient {
  readonly direct: Route;
  /** The drift alarm: each page kind's state as this process last parsed it. */
  readonly health: PageHealth;
  private readonly tokens: TokenStore;
  /** Values parsed from pages that had every expected field (held by the caches as they are). */
  private readonly completeCopies = new WeakSet<object>();
  private readonly now: () => number;
  private cooldownUntil = 0;

  constructor(private readonly opts: ExchangeClientOptions) {
    this.now = opts.now;
    this.health = new PageHealth(opts.now, opts.onPageState);
    this.direct = {
      scope: 'direct',
      dispatcher: new Agent({
        connect: { timeout: opts.connectTimeoutMs },
        keepAliveTimeout: 30_000,
        connections: 8,
        headersTimeout: opts.requestTimeoutMs,
        bodyTimeout: opts.requestTimeoutMs,
      }),
    };
    this.tokens = new TokenStore(
      (dispatcher) => this.fetchToken(dispatcher ?? this.direct.dispatcher),
      opts.tokenMaxAgeMs,
      this.now,
      opts.onTokenRefresh,
      opts.tokenRetryAfterFailureMs,
    );
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /** Seconds until the post-429 pause ends, or 0 when fetching is allowed. */
  cooldownRemainingSec(): number {
    const ms = this.cooldownUntil - this.now();
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  async fetchText(req: PortalRequest, route: Route = this.direct): Promise<string> {
    return (await this.fetchPage(req, route)).body;
  }

  /**
   * Fetches the page and parses it, recording the page kind's state for the drift alarm: parsed
   * with every expected field, parsed lacking some, or not parsed at all (the parser's error, thrown
   * on). A page answered 4xx where it should be counts as not parsed; a portal that is down or
   * refusing says nothing about the page and leaves its state as it was.
   *
   * A page that lacks fields, when `previous` (the copy the caller holds) is one this process
   * parsed complete, is refused with UpstreamDataError: the caller's cache then serves that copy as
   * stale rather than replace good values with nulls. Without such a copy (a fresh process, one
   * restarted, a copy that already lacked them) what parsed is returned, the missing fields null.
   */
  async fetchParsed<T>(
    req: PortalRequest,
    parse: (text: string) => T,
    route: Route = this.direct,
    previous?: unknown,
  ): Promise<ParsedPage<T>> {
    let page: { status: number; body: string };
    try {
      page = await this.fetchPage(req, route);
    } catch (err) {
      if (err instanceof UpstreamDataError) this.health.failed(req.kind, err.message);
      throw err;
    }
    const { value, fields } = this.health.parse(req.kind, () => parse(page.body));
    if (fields.missing.length === 0) {
      if (typeof value === 'object' && value !== null) this.completeCopies.add(value);
    } else if (typeof previous === 'object' && previous !== null && this.completeCopies.has(previous)) {
      const names = fields.missing.map((m) => `"${m}"`).join(', ');
      throw new UpstreamDataError(
        req.kind,
        `${names} not found on the page; the last complete copy is served`,
      );
    }
    return { value, status: page.status, fields };
  }

  /** The page's status and text (2xx only: everything else leaves as a typed error). */
  async fetchPage(req: PortalRequest, route: Route = this.direct): Promise<{ status: number; body: string }> {
    const answer = await this.exchange(req.kind, route, {
      token: true,
      refused: 'request',
      send: (token) => this.send(req, token, route.dispatcher),
    });
    if (answer.status >= 200 && answer.status < 300) {
      return { status: answer.status, body: answer.body };
    }
    // Any other 4xx (a 404 where the page should be): the portal was reached and answered, but
    // not with the page; like a page that no longer parses, not like a portal that is down.
    throw new UpstreamDataError(req.kind, `the exchange answered ${answer.status} where the page should be`);
  }

  /**
   * One HTTP exchange with the portal, retried as its transport rules say: jittered retries on
   * network errors and 5xx, one token refresh and retry on 403 (with a token), the post-429 pause.
   * Returns a 2xx answer, or any other 4xx for the caller to read; everything else leaves as a
   * typed error.
   */
  private async exchange<B>(
    kind: PageKind,
    route: Route,
    how: {
      /** Whether the request carries the rotating token (pages do; downloads do not). */
      token: boolean;
      /** What the portal refused, in its 403 message. */
      refused: 'request' | 'download';
      send: (token: string | null) => Promise<RawAnswer<B>>;
    },
  ): Promise<RawAnswer<B>> {
    this.assertNotCoolingDown();
    let token = how.token ? await this.tokens.get(route.scope, route.dispatcher) : null;
    let refreshedForbidden = false;
    let retries = 0;
    for (;;) {
      this.assertNotCoolingDown();
      const started = this.now();
      let answer: RawAnswer<B>;
      try {
        answer = await how.send(token);
      } catch (err) {
        this.opts.onFetch?.(kind, 'network_error', this.now() - started);
        // A caller's proxy failing is its own error (proxy_unreachable), not worth retrying here.
        if (err instanceof ServiceError) throw err;
        const mapped = route.mapNetworkError?.(err);
        if (mapped) throw mapped;
        if (retries < this.opts.maxRetries) {
          await this.backoff(retries++);
          continue;
        }
        throw new ExchangeUnavailableError(`the exchange could not be reached (${describe(err)})`, 30);
      }
      const { status } = answer;
      const elapsed = this.now() - started;
      if (status >= 200 && status < 300) {
        this.opts.onFetch?.(kind, 'ok', elapsed);
        return answer;
      }
      if (status === 403) {
        this.opts.onFetch?.(kind, 'http_403', elapsed);
        if (how.token && !refreshedForbidden && this.opts.retryForbidden !== false) {
          refreshedForbidden = true;
          token = await this.tokens.refresh(route.scope, token, route.dispatcher);
          continue;
        }
        throw new ExchangeUnavailableError(`the exchange refused the ${how.refused} (403)`, 60, status);
      }
      if (status === 429) {
        this.opts.onFetch?.(kind, 'http_429', elapsed);
        this.cooldownUntil = this.now() + this.opts.cooldownAfter429Ms;
        throw new ExchangeUnavailableError(
          'the exchange is rate-limiting this server',
          Math.ceil(this.opts.cooldownAfter429Ms / 1000),
          status,
        );
      }
      if (status >= 500) {
        this.opts.onFetch?.(kind, 'http_5xx', elapsed);
        if (retries < this.opts.maxRetries) {
          await this.backoff(retries++);
          continue;
        }
        throw new ExchangeUnavailableError(`the exchange answered ${status}`, 30, status);
      }
      this.opts.onFetch?.(kind, 'http_other', elapsed);
      return answer;
    }
  }

  /** Fetches the route's request token now unless a fresh one is held (the canary paces it as a request). */
  async prepareToken(route: Route = this.direct): Promise<void> {
    await this.tokens.get(route.scope, route.dispatcher);
  }

  /**
   * A daily closing file (`/download/mkt_summary/YYYY-MM-DD.Z`), decoded and parsed, or `found:
   * false` for the portal's 404 HTML page (a weekend or holiday). A download, as a browser makes it:
   * its User-Agent and the portal's Referer (the portal refuses `/download/*` without them), no token.
   *
   * Records the `daily-file` kind's state for the drift alarm like fetchParsed: `ok`; `changed` when
   * the body arrived but its container, member or line layout did not read as expected (the fields
   * named; a file that does not parse is thrown on, UpstreamDataError, never an empty day; one whose
   * few skipped lines named the fields is returned); `failing` when the portal answered another 4xx
   * (or a 404 without its error page) where the file should be. The no-session page says nothing
   * about the file's layout and leaves the state as it was, as a portal that is down does.
   */
  async fetchDailyFile(date: string, route: Route = this.direct): Promise<DailyFileFetch> {
    const kind: PageKind = 'daily-file';
    const url = `${this.opts.baseUrl}/download/mkt_summary/${date}.Z`;
    const answer = await this.exchange(kind, route, {
      token: false,
      refused: 'download',
      send: async () => {
        const res = await request(url, {
          method: 'GET',
          headers: { 'user-agent': BROWSER_UA, referer: `${this.opts.baseUrl}/`, accept: '*/*' },
          dispatcher: route.dispatcher,
          signal: AbortSignal.timeout(this.opts.requestTimeoutMs),
        });
        const body = new Uint8Array(await res.body.arrayBuffer());
        return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body };
      },
    });
    const { status, body } = answer;
    if (status < 200 || status >= 300) {
      if (status === 404) {
        const head = Buffer.from(body.subarray(0, 512)).toString('latin1').toLowerCase();
        if (answer.contentType.includes('html') || head.includes('<html') || head.includes('<!doctype'))
          return { found: false };
      }
      const detail =
        status === 404
          ? `the exchange answered 404 without its error page for ${date}`
          : `the exchange answered ${status} for the daily file of ${date}`;
      this.health.failed(kind, detail);
      throw new UpstreamDataError(kind, detail);
    }
    const outcome = collectFields(() => {
      const { container, text } = decodeDailyFile(body);
      return { container, file: parseDailyFile(text, date) };
    });
    const { missing } = outcome.fields;
    if (!outcome.ok) {
      const detail = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      // The body arrived and is not the file as known: drift, the fields named; without any, a
      // failure the parser could not place.
      if (missing.length > 0) this.health.parsed(kind, missing, detail);
      else this.health.failed(kind, detail);
      throw outcome.error;
    }
    const { container, file } = outcome.value;
    const skipped = file.skipped[0];
    this.health.parsed(
      kind,
      missing,
      skipped && `${file.skipped.length} lines skipped (line ${skipped.line}: ${skipped.reason})`,
    );
    return { found: true, container, file, fields: outcome.fields };
  }

  async close(): Promise<void> {
    await this.direct.dispatcher.close();
  }

  private assertNotCoolingDown(): void {
    const wait = this.cooldownRemainingSec();
    if (wait > 0) {
      throw new ExchangeUnavailableError(
        'the exchange is rate-limiting this server; pausing requests',
        wait,
        429,
      );
    }
  }

  private async send(
    req: PortalRequest,
    token: string | null,
    dispatcher: Dispatcher,
  ): Promise<RawAnswer<string>> {
    const headers: Record<string, string> = {
      'user-agent': BROWSER_UA,
      'x-requested-with': 'XMLHttpRequest',
      referer: `${this.opts.baseUrl}/`,
      accept: JSON_KINDS.has(req.kind) ? 'application/json, */*; q=0.01' : 'text/html, */*; q=0.01',
    };
    if (token !== null) headers['x-req-id'] = token;
    let body: string | undefined;
    if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded; charset=UTF-8';
    }
    const res = await request(`${this.opts.baseUrl}${req.path}`, {
      method: req.method,
      headers,
      body,
      dispatcher,
      signal: AbortSignal.timeout(this.opts.requestTimeoutMs),
    });
    const contentType = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, contentType, body: await res.body.text() };
  }

  /** A plain page load (no X-Requested-With), as a browser's first visit. */
  private async fetchToken(dispatcher: Dispatcher): Promise<string | null> {
    const started = this.now();
    try {
      const res = await request(`${this.opts.baseUrl}/`, {
        method: 'GET',
        headers: { 'user-agent': BROWSER_UA, accept: 'text/html' },
        dispatcher,
        signal: AbortSignal.timeout(this.opts.requestTimeoutMs),
      });
      const html = await res.body.text();
      this.opts.onFetch?.('token', res.statusCode === 200 ? 'ok' : 'http_other', this.now() - started);
      if (res.statusCode !== 200) return null;
      const token = parseToken(html);
      // Requests go out without a token then (fail open), but a home page without one has changed.
      this.health.parsed('token', token === null ? ['_k'] : []);
      return token;
    } catch (err) {
      this.opts.onFetch?.('token', 'network_error', this.now() - started);
      throw err;
    }
  }

  private backoff(attempt: number): Promise<void> {
    const ms = this.opts.retryBaseMs * 2 ** attempt * (0.5 + Math.random());
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    return typeof code === 'string' ? code : err.name;
  }
  return 'unknown error';
}
