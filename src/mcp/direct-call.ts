// A tools/call answered by the front door, before Fastify and the SDK's protocol layer. On a
// cached answer those layers were most of what a call cost (bench/README.md): routing and body
// parsing, the SDK's schema checks of the message, the request and the result, and a protocol
// server per request. Only the plainest POST is taken here, one JSON-RPC request
// `{jsonrpc, id, method: "tools/call", params: {name, arguments}}` of an offered tool, from an
// allowed host and origin, accepting JSON and SSE, without a caller proxy; everything else (a
// batch, `_meta`, an unknown tool, a refusal of the body) goes on to the route (route.ts), which
// says what is wrong. The answer is the route's, byte for byte: the same request limit count, the
// same callTool (server.ts), the result's fields in the order the SDK writes them.
import type { IncomingMessage } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { RateLimitedError } from '../errors.ts';
import type { ClientAddress } from '../http/pipeline/client-address.ts';
import { requestIdOf } from '../http/pipeline/common-headers.ts';
import type { BodyRoute, Prepared } from '../http/pipeline/front-door.ts';
import { PROXY_HEADERS } from '../http/pipeline/request-context.ts';
import type { RequestLimit } from '../limits/request-limit.ts';
import { allowedRequest, type McpAccess } from './access.ts';
import { callTool, offeredTool, toolError } from './server.ts';
import type { Tool, ToolContext } from './tool-kit.ts';
import { memoByDataset } from '../cache/memo.ts';

export interface DirectCallOptions {
  /** The tools' context without the request's part (the route's, shared). */
  tools: Omit<ToolContext, 'ctx'>;
  limit: RequestLimit;
  clientAddress: ClientAddress;
  access: McpAccess;
  logger: Logger;
  onRateLimited?: () => void;
}

const ROUTE = '/mcp';
const JSON_TYPE = 'application/json; charset=utf-8';
const JSON_BODY = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;

interface Call {
  id: string | number;
  name: string;
  args: Record<string, unknown>;
}

interface Serialised {
  /** The answer's JSON up to its id: the result, with its fields in the order the SDK writes them. */
  head: string;
  bytes: number;
}

// Made once per result (cached answers repeat the same result object).
const serialise = memoByDataset((result: CallToolResult): Serialised => {
  const { content, structuredContent, isError } = result;
  const head = `{"result":${JSON.stringify({ content, structuredContent, isError })},"jsonrpc":"2.0","id":`;
  return { head, bytes: Buffer.byteLength(head) };
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function keyCount(value: object): number {
  let n = 0;
  for (const key in value) if (Object.hasOwn(value, key)) n++;
  return n;
}

/** The body as a plain tools/call, or undefined for anything else. */
function plainCall(body: Buffer): Call | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call')
    return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (keyCount(message) !== 4 || !isPlainObject(params) || typeof params.name !== 'string') return undefined;
  const args = params.arguments;
  if (args === undefined ? keyCount(params) !== 1 : !isPlainObject(args) || keyCount(params) !== 2) {
    return undefined;
  }
  return { id: id as string | number, name: params.name, args: (args ?? {}) as Record<string, unknown> };
}

export function directToolCall(opts: DirectCallOptions): BodyRoute {
  const { limit, clientAddress, tools } = opts;

  async function answer(req: IncomingMessage, call: Call, t: Tool): Promise<Prepared> {
    const headers: string[] = [];
    const client = clientAddress.of(req);
    let result: CallToolResult;
    let refused: RateLimitedError | undefined;
    if (limit.enabled) {
      const d = await limit.take(client);
      headers.push(
        'ratelimit-limit',
        String(d.limit),
        'ratelimit-remaining',
        String(d.remaining),
        'ratelimit-reset',
        String(d.resetSeconds),
      );
      if (!d.allowed) {
        opts.onRateLimited?.();
        refused = new RateLimitedError('Rate limit exceeded', d.resetSeconds);
      }
    }
    if (refused !== undefined) result = toolError(refused);
    else {
      // Logged as the route's request logger would: with the request's id.
      const logger = {
        error: (obj: object, msg: string) => opts.logger.error({ reqId: requestIdOf(req), ...obj }, msg),
      };
      result = await callTool(t, call.args, { ...tools, ctx: { clientIp: client } }, logger);
    }
    const { head, bytes } = serialise(result);
    const tail = `${JSON.stringify(call.id)}}`;
    const body = head + tail;
    const length = bytes + (typeof call.id === 'number' ? tail.length : Buffer.byteLength(tail));
    headers.push('cache-control', 'no-store', 'content-type', JSON_TYPE, 'content-length', String(length));
    return { status: 200, headers, body, route: ROUTE };
  }

  return {
    takes(req) {
      const { headers } = req;
      const type = headers['content-type'];
      if (type === undefined || !JSON_BODY.test(type)) return false;
      const accept = headers.accept;
      if (
        accept === undefined ||
        !accept.includes('application/json') ||
        !accept.includes('text/event-stream')
      ) {
        return false;
      }
      const version = headers['mcp-protocol-version'];
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) return false;
      for (const name of PROXY_HEADERS) if (headers[name] !== undefined) return false;
      return allowedRequest(headers, opts.access) === undefined;
    },
    answer(req, body) {
      const call = plainCall(body);
      const t = call === undefined ? undefined : offeredTool(call.name, tools);
      return t === undefined ? undefined : answer(req, call as Call, t);
    },
  };
}
