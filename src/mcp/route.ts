// POST /mcp: the Model Context Protocol over Streamable HTTP (stateless, JSON answers: the SDK's
// protocol layer behind json-transport.ts), a Fastify route behind the same front door as every endpoint: its request id, CORS
// headers, access log and metrics. The request limit counts each JSON-RPC request a POST carries
// (a batch counts each message) here rather than at the door, so that a refused tool call is a tool
// error an agent can read (with the wait) instead of an HTTP 429 its client would only log.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, ERROR_KINDS, RateLimitedError, type ServiceError } from '../errors.ts';
import type { ClientAddress } from '../http/pipeline/client-address.ts';
import { toServiceError } from '../http/pipeline/error-handler.ts';
import type { ArchiveDeps } from '../http/routes/archive.ts';
import type { RouteDeps } from '../http/routes/deps.ts';
import { FeedDatasets } from '../market/feeds/feed-datasets.ts';
import { lazyHistorySource } from '../market/analytics/lazy.ts';
import type { RequestLimit } from '../limits/request-limit.ts';
import { allowedRequest, type McpAccess } from './access.ts';
import { bodyReadByDoor, type BodyRoute } from '../http/pipeline/front-door.ts';
import { SELF_COUNTED } from '../http/pipeline/limit-rules.ts';
import type { DirectCallOptions } from './direct-call.ts';
import type { ToolContext, ToolSet } from './tool-kit.ts';

/** A JSON-RPC message is small (tool arguments); a batch of them stays far below this. */
export const MCP_MAX_BODY_BYTES = 256 * 1024;
/** Messages in one batch at most: each is a request the limit counts. */
export const MCP_MAX_BATCH = 100;

export interface McpRouteOptions {
  deps: RouteDeps;
  /** The tools' context but the request's part (mcpTools), shared with the front door's answers. */
  tools: Omit<ToolContext, 'ctx'>;
  limit: RequestLimit;
  clientAddress: ClientAddress;
  access: McpAccess;
  version: string;
  openapi: () => unknown;
  onRateLimited?: () => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

// JSON-RPC 2.0's own codes for a message that cannot be read.
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** The transport refused the request (method, host, size): the SDK's code for it. */
const TRANSPORT_ERROR = -32000;

// The MCP SDK (with its schema library) and the tools are loaded at the first POST /mcp, not at
// start: most deployments never receive one, and the SDK with its schema libraries is among the
// largest things the service would otherwise load (bench/README.md, "Start-up").
type McpModules = [
  typeof import('./server.ts'),
  typeof import('./json-transport.ts'),
  typeof import('./direct-call.ts'),
];
let mcpModules: Promise<McpModules> | undefined;
function loadMcp(): Promise<McpModules> {
  mcpModules ??= Promise.all([
    import('./server.ts'),
    import('./json-transport.ts'),
    import('./direct-call.ts'),
  ]);
  return mcpModules;
}

/**
 * The front door's answer to a plain tools/call (direct-call.ts), once the MCP modules are loaded;
 * until then it takes nothing, and the route answers (the same bytes) while they load.
 */
export function lazyDirectToolCall(opts: DirectCallOptions): BodyRoute {
  let loaded: BodyRoute | undefined;
  let loading = false;
  return {
    takes(req) {
      if (loaded !== undefined) return loaded.takes(req);
      if (!loading) {
        loading = true;
        loadMcp().then(
          ([, , direct]) => {
            loaded = direct.directToolCall(opts);
          },
          (err: unknown) => {
            loading = false;
            opts.logger.error({ err }, 'MCP modules failed to load');
          },
        );
      }
      return false;
    },
    answer(req, body) {
      return loaded?.answer(req, body);
    },
  };
}

/** What every tool call is given beside the request's context. */
export function mcpTools(
  deps: RouteDeps,
  archive: ArchiveDeps | undefined,
  toolSet: ToolSet = 'all',
): Omit<ToolContext, 'ctx'> {
  return {
    toolSet,
    datasets: deps.datasets,
    marketClock: deps.marketClock,
    feeds: new FeedDatasets(deps.datasets),
    memberSeries: deps.memberSeries ?? lazyHistorySource(deps.datasets),
    archive,
  };
}

export function mcpRoutes(app: FastifyInstance, opts: McpRouteOptions): void {
  const { deps } = opts;
  // The API takes no bodies; this route takes JSON-RPC, read here as text so that a body that is
  // not JSON is a JSON-RPC parse error rather than the API's envelope.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: MCP_MAX_BODY_BYTES },
    (_req, body, done) => done(null, body),
  );
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    const failure = toServiceError(err, req);
    return rpcError(reply, failure, TRANSPORT_ERROR, transportMessage(err, failure));
  });

  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: '/mcp',
    schema: { hide: true },
    config: SELF_COUNTED,
    handler: (_req, reply) => {
      // Stateless: no session to end (DELETE) and no stream of server-initiated messages (GET);
      // the specification's answer to both is 405.
      reply.header('allow', 'POST');
      return rpcError(
        reply,
        new HttpError(
          ERROR_KINDS.methodNotAllowed,
          'this MCP server is stateless: send JSON-RPC messages with POST',
        ),
        TRANSPORT_ERROR,
      );
    },
  });

  app.post(
    '/mcp',
    {
      schema: { hide: true },
      config: SELF_COUNTED,
      // A body the front door read (to answer a cached tools/call itself) and left to this route.
      preParsing: (req, _reply, payload, done) => done(null, bodyReadByDoor(req.raw) ?? payload),
    },
    async (req, reply) => {
      const refused = allowedRequest(req.headers, opts.access);
      if (refused !== undefined) {
        return rpcError(reply, new HttpError(ERROR_KINDS.badRequest, refused), TRANSPORT_ERROR);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return rpcError(
          reply,
          new HttpError(ERROR_KINDS.badRequest, 'Parse error: the body is not JSON'),
          PARSE_ERROR,
        );
      }
      const messages = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
      if (messages.length === 0 || messages.length > MCP_MAX_BATCH) {
        return rpcError(
          reply,
          new HttpError(
            ERROR_KINDS.badRequest,
            `a batch holds 1 to ${MCP_MAX_BATCH} messages, got ${messages.length}`,
          ),
          INVALID_REQUEST,
        );
      }
      const [{ createMcpServer }, { answersInOrder, checkPost, JsonTransport, renumber }] = await loadMcp();
      const checked = checkPost(req.headers, messages);
      if ('refusal' in checked) {
        const { status, rpcCode, message } = checked.refusal;
        const kind = status === 406 ? { ...ERROR_KINDS.badRequest, status } : ERROR_KINDS.badRequest;
        return rpcError(reply, new HttpError(kind, message), rpcCode);
      }
      // Only notifications or responses: nothing to answer (the specification's 202).
      if (checked.requests === 0) return reply.code(202).send();
      // Each request is answered under an id of its own within this POST (its position), so that
      // two requests of a batch with the same id both get their answer; the answers carry the
      // ids the client sent.
      const { renamed, original } = renumber(checked.messages, checked.positions);
      const positions = [...original.keys(), ...checked.early.keys()].sort((a, b) => a - b);
      const refusals = await count(req, reply, positions, opts);
      const ctx = deps.contextOf(req);
      const server = createMcpServer({
        version: opts.version,
        logger: req.log,
        openapi: opts.openapi,
        refusal: (id) => refusals?.get(id),
        tool: { ...opts.tools, ctx },
      });
      const transport = new JsonTransport();
      await server.connect(transport);
      const exchanged = await transport.exchange(renamed, req.headers);
      const answers = answersInOrder(exchanged, original, checked.early);
      // A batch is answered with an array, a single request with its one answer (JSON-RPC 2.0).
      const body = Array.isArray(parsed) ? answers : answers[0];
      return reply.code(200).header('cache-control', 'no-store').type(JSON_TYPE).send(JSON.stringify(body));
    },
  );
}

/**
 * Counts each JSON-RPC request of the body (by its position) against the request limit;
 * returns the refused ones by position. The RateLimit-* headers say where the client stands
 * after the last one.
 */
async function count(
  req: FastifyRequest,
  reply: FastifyReply,
  requests: number[],
  opts: McpRouteOptions,
): Promise<Map<string | number, RateLimitedError> | undefined> {
  const { limit } = opts;
  if (!limit.enabled) return undefined;
  const client = opts.clientAddress.of(req.raw);
  let refusals: Map<string | number, RateLimitedError> | undefined;
  for (const at of requests) {
    const d = await limit.take(client);
    reply.raw.setHeader('ratelimit-limit', String(d.limit));
    reply.raw.setHeader('ratelimit-remaining', String(d.remaining));
    reply.raw.setHeader('ratelimit-reset', String(d.resetSeconds));
    if (d.allowed) continue;
    opts.onRateLimited?.();
    refusals ??= new Map();
    refusals.set(at, new RateLimitedError('Rate limit exceeded', d.resetSeconds));
  }
  return refusals;
}

function transportMessage(err: Error, failure: ServiceError): string {
  switch ((err as FastifyError).code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `the body is over ${MCP_MAX_BODY_BYTES} bytes`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'POST /mcp takes JSON-RPC messages as application/json';
    default:
      return failure.message;
  }
}

/** A failure of the HTTP request itself, as JSON-RPC says (`id` null), with the service's code. */
function rpcError(
  reply: FastifyReply,
  err: ServiceError,
  rpcCode: number,
  message = err.message,
): FastifyReply {
  reply.header('cache-control', 'no-store');
  if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code: rpcCode, message, data: { status: err.statusCode, code: err.code } },
  };
  return reply.code(err.statusCode).type(JSON_TYPE).send(JSON.stringify(body));
}
