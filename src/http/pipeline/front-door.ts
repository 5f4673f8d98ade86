// The server's one request listener; Fastify sits behind it (app.ts gives it as Fastify's
// serverFactory). Every request the server accepts passes these steps, each defined here and
// nowhere else:
//   1. its id (requestIdOf) and the headers every answer carries: the id and CORS;
//   2. once shutdown has begun, 503 not_ready, and the connection closes;
//   3. on API endpoints, the request limit: RateLimit-* headers, 429 rate_limited beyond it;
//   4. a repeat of a fresh cached answer gets the responder's prepared bytes (respond.ts, replay);
//      anything else goes on to Fastify: routing, validation, the handlers and the error mapping;
//   5. when the response is done: the access log line and the request metrics.
// A repeat is answered before Fastify's request and reply exist because on small answers those
// objects and their hooks were most of what a cached answer cost (bench/README.md, "the front door").
// Cold requests are not held here: concurrent misses share the cache's single flight.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { NotReadyError, RateLimitedError } from '../../errors.ts';
import type { LimitDecision, RequestLimit } from '../../limits/request-limit.ts';
import { accessLineOf, type AccessLine } from './access-line.ts';
import type { ClientAddress } from './client-address.ts';
import { CORS_HEADERS, requestIdOf } from './common-headers.ts';
import type { Metrics } from './metrics.ts';
import { writeError } from './error-handler.ts';
import { endWith } from './one-write.ts';
import type { Replay } from './respond.ts';
import type { Shutdown } from './shutdown.ts';

/** What a request meets once shutdown has begun (the OpenAPI examples quote it). */
export const SHUTTING_DOWN_MESSAGE = 'the service is shutting down; retry on another replica';

export interface FrontDoorOptions {
  logger: Logger;
  metrics: Metrics;
  limit: RequestLimit;
  clientAddress: ClientAddress;
  /** Once it has begun, new requests are refused. */
  shutdown: Shutdown;
  /** A fresh answer's prepared response for a repeated GET; absent, every request goes to Fastify. */
  replay?: (req: IncomingMessage) => Replay | undefined;
  /** Told of each request the limit refuses. */
  onRateLimited?: () => void;
}

/** The metrics label of a request answered before routing (the limit's 429, shutdown's 503). */
const UNROUTED = 'unrouted';
/** The metrics label of a request Fastify answered without a route (a 404, a malformed path). */
const UNMATCHED = 'unmatched';

const STARTED = Symbol('started');
const ROUTE = Symbol('route');
type Tracked = ServerResponse & { [STARTED]: number; [ROUTE]?: string };

/** Tells the front door which route template answers `res` (its metrics label). */
export function answeredBy(res: ServerResponse, route: string): void {
  (res as Tracked)[ROUTE] = route;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A complete answer made before Fastify: status, headers (name/value pairs) and body. */
export interface Prepared {
  status: number;
  headers: readonly string[];
  body: string | Buffer;
  /** The route template it answers for (the metrics label). */
  route: string;
}

/**
 * A path whose POSTs the door may answer itself once it has read the body (a cached tools/call
 * over MCP, src/mcp/direct-call.ts); what it leaves, Fastify answers from the same body.
 */
export interface BodyRoute {
  /** Whether the request's headers allow an answer here; false: the body is left to Fastify unread. */
  takes(req: IncomingMessage): boolean;
  /** The answer to `body`, or undefined for Fastify to answer (it gets the body as read). */
  answer(req: IncomingMessage, body: Buffer): Promise<Prepared | undefined> | undefined;
}

/** Bodies larger than this go to Fastify unread (a tools/call is a few hundred bytes). */
const BODY_READ_MAX = 16 * 1024;

const BODY = Symbol('body');
type Read = IncomingMessage & { [BODY]?: Buffer };

/**
 * The body of a request the door read and left to Fastify, as a stream for the route's parser
 * (a `preParsing` hook hands it over); undefined when the door did not read it.
 */
export function bodyReadByDoor(req: IncomingMessage): Readable | undefined {
  const body = (req as Read)[BODY];
  return body === undefined ? undefined : Readable.from([body], { objectMode: false });
}

export class FrontDoor {
  private fastify: Handler = () => {
    throw new Error('the front door was used before Fastify was behind it');
  };
  // Not API endpoints (documents, the dashboard, /metrics): never counted by the limit.
  private readonly uncountedPaths = new Set<string>();
  private readonly uncountedPrefixes: string[] = [];
  // Counted by their own handler, whatever the method (/mcp counts each JSON-RPC request it carries).
  private readonly selfCountedPaths = new Set<string>();
  private readonly bodyRoutes = new Map<string, BodyRoute>();
  private readonly accessLine: AccessLine;
  private readonly logsReplays: boolean;
  private readonly done: (this: ServerResponse) => void;

  constructor(private readonly opts: FrontDoorOptions) {
    this.logsReplays = opts.logger.isLevelEnabled('debug');
    // Written by hand into the logger's stream (access-line.ts); its fields hold no headers, so the
    // logger's redaction (of request headers) has nothing to find in it.
    const { clientAddress } = opts;
    this.accessLine = accessLineOf(opts.logger, (req) => clientAddress.of(req));
    // One listener for every response ('close' gives it the response as `this`), not a closure each.
    const finish = (res: Tracked): void => this.finish(res);
    this.done = function (this: ServerResponse) {
      finish(this as Tracked);
    };
  }

  /** Fastify's own request handler, which answers whatever the front door does not. */
  behind(handler: Handler): void {
    this.fastify = handler;
  }

  /** A path whose GETs the request limit does not count; `/prefix/*` covers all below the prefix. */
  exempt(url: string): void {
    if (url.endsWith('/*')) this.uncountedPrefixes.push(url.slice(0, -1));
    else this.uncountedPaths.add(url);
  }

  /** A path whose handler asks the request limit itself: the door never counts it. */
  countedBy(url: string): void {
    this.selfCountedPaths.add(url);
  }

  /** POSTs to `url` the door may answer itself, after reading their body (BodyRoute). */
  answerBodies(url: string, route: BodyRoute): void {
    this.bodyRoutes.set(url, route);
  }

  /** The server's 'request' listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    (res as Tracked)[STARTED] = performance.now();
    res.on('close', this.done);
    const headers = ['x-request-id', requestIdOf(req), ...CORS_HEADERS];
    if (this.opts.shutdown.begun) {
      headers.push('connection', 'close');
      writeError(res, new NotReadyError(SHUTTING_DOWN_MESSAGE), headers);
      return;
    }
    const { limit } = this.opts;
    if (!limit.enabled || !this.counted(req)) {
      this.admit(req, res, headers);
      return;
    }
    limit.take(this.opts.clientAddress.of(req)).then(
      (decision) => this.decide(req, res, headers, decision),
      (err: unknown) => {
        // The counters fall back to this process when Redis fails; past that, an answer is better
        // than a refusal nobody earned.
        this.opts.logger.error({ err }, 'request limit could not count; request let through');
        this.admit(req, res, headers);
      },
    );
  };

  private decide(req: IncomingMessage, res: ServerResponse, headers: string[], d: LimitDecision): void {
    headers.push(
      'ratelimit-limit',
      String(d.limit),
      'ratelimit-remaining',
      String(d.remaining),
      'ratelimit-reset',
      String(d.resetSeconds),
    );
    if (d.allowed) {
      this.admit(req, res, headers);
      return;
    }
    this.opts.onRateLimited?.();
    writeError(res, new RateLimitedError('Rate limit exceeded', d.resetSeconds), headers);
  }

  /** Past the limit: a replay, an answer to a body, or Fastify with the common headers on the response. */
  private admit(req: IncomingMessage, res: ServerResponse, headers: string[]): void {
    const { method } = req;
    const replay = method === 'GET' ? this.opts.replay?.(req) : undefined;
    if (replay !== undefined) {
      answeredBy(res, replay.route);
      if (this.logsReplays) this.opts.logger.debug({ reqId: requestIdOf(req) }, 'replayed a fresh answer');
      headers.push(...replay.headers);
      res.writeHead(200, headers);
      endWith(res, replay.body);
      return;
    }
    if (method === 'POST' && this.bodyRoutes.size > 0) {
      const route = this.bodyRoutes.get(pathOf(req));
      const length = Number(req.headers['content-length']);
      if (route !== undefined && length <= BODY_READ_MAX && route.takes(req)) {
        this.readBody(req, res, headers, route);
        return;
      }
    }
    this.handOn(req, res, headers);
  }

  private handOn(req: IncomingMessage, res: ServerResponse, headers: string[]): void {
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i] as string, headers[i + 1] as string);
    answeredBy(res, UNMATCHED); // until a route's hook names itself
    this.fastify(req, res);
  }

  private readBody(req: IncomingMessage, res: ServerResponse, headers: string[], route: BodyRoute): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A client gone before its body ended has nothing to be answered ('close' logs it as aborted).
    req.on('end', () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const leave = (): void => {
        (req as Read)[BODY] = body;
        this.handOn(req, res, headers);
      };
      const answering = route.answer(req, body);
      if (answering === undefined) {
        leave();
        return;
      }
      answering.then(
        (prepared) => {
          if (prepared === undefined) {
            leave();
            return;
          }
          answeredBy(res, prepared.route);
          if (this.logsReplays)
            this.opts.logger.debug({ reqId: requestIdOf(req) }, 'answered before routing');
          headers.push(...prepared.headers);
          res.writeHead(prepared.status, headers);
          res.end(prepared.body);
        },
        (err: unknown) => {
          // Fastify answers it instead, and says what failed the way it does for every route.
          this.opts.logger.error({ err, reqId: requestIdOf(req) }, 'answer before routing failed');
          leave();
        },
      );
    });
  }

  private counted(req: IncomingMessage): boolean {
    // Preflights are CORS's, not API requests; any other method than GET and HEAD is a request to
    // the API (answered 405) wherever it is sent.
    const { method } = req;
    if (method === 'OPTIONS') return false;
    const path = pathOf(req);
    if (this.selfCountedPaths.size > 0 && this.selfCountedPaths.has(path)) return false;
    if (method !== 'GET' && method !== 'HEAD') return true;
    if (this.uncountedPaths.has(path)) return false;
    for (const prefix of this.uncountedPrefixes) if (path.startsWith(prefix)) return false;
    return true;
  }

  /** The response is done (sent, or its connection gone): the access log line and the metrics. */
  private finish(res: Tracked): void {
    const ms = performance.now() - res[STARTED];
    const req = res.req;
    const route = res[ROUTE] ?? UNROUTED;
    const method = req.method ?? '';
    const sent = res.writableFinished;
    // A response cut off by its client was not answered: it is logged, not counted.
    if (sent) this.opts.metrics.countRequest(route, method, res.statusCode, ms / 1000);
    if (!this.accessLine.enabled()) return;
    this.accessLine.write(req, res.statusCode, ms, !sent);
  }
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
