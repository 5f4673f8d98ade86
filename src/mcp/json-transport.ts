// The Streamable HTTP transport's POST, for a stateless server that answers in JSON: the messages
// of one request body go to the SDK's protocol layer, and the answers to its requests come back as
// one JSON body. The SDK's own transport does the same through Web Request/Response objects
// (@hono/node-server) and a stream per request, which cost several times what the answer itself
// does (bench/README.md); the rules it applies are the same here: Accept must name JSON and SSE,
// every message must be JSON-RPC, initialize comes alone, and a known MCP-Protocol-Version.
import type { IncomingHttpHeaders } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { kindOf, shownValue } from './rpc-error.ts';

/** A refusal of the whole body, as the SDK's transport words and codes it. */
export interface Refusal {
  status: number;
  rpcCode: number;
  message: string;
}

/**
 * What one POST carries, checked: its messages for the protocol layer, the answers to requests
 * whose params could not be read (made here, by position in the body), and the number of
 * requests to answer.
 */
export type Checked =
  | {
      messages: JSONRPCMessage[];
      /** Each message's position in the body. */
      positions: number[];
      early: Map<number, JSONRPCMessage>;
      requests: number;
    }
  | { refusal: Refusal };

/** The params of the methods whose params the SDK's schemas would reject with a validator dump. */
const PARAM_RULES: Record<string, (params: Record<string, unknown>) => string | undefined> = {
  'tools/call': (p) => {
    if (typeof p.name !== 'string') {
      return `tools/call needs params.name, the tool's name as a string (got ${kindOf(p.name)}); tools/list gives the names`;
    }
    const args = p.arguments;
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      return `the arguments of ${shownValue(p.name)} must be an object of named arguments, e.g. {"symbol": "ENGRO"} (got ${kindOf(args)})`;
    }
    return undefined;
  },
  'resources/read': (p) =>
    typeof p.uri === 'string'
      ? undefined
      : `resources/read needs params.uri, a resource's URI as a string (got ${kindOf(p.uri)}); resources/list gives them`,
  'prompts/get': (p) => {
    if (typeof p.name !== 'string') {
      return `prompts/get needs params.name, the prompt's name as a string (got ${kindOf(p.name)}); prompts/list gives them`;
    }
    const args = p.arguments;
    if (args === undefined) return undefined;
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return `the arguments of prompt ${shownValue(p.name)} must be an object of strings, e.g. {"symbol": "ENGRO"} (got ${kindOf(args)})`;
    }
    const bad = Object.entries(args).find(([, v]) => typeof v !== 'string');
    return bad === undefined
      ? undefined
      : `the arguments of prompt ${shownValue(p.name)} are strings: ${shownValue(bad[0])} is ${kindOf(bad[1])}`;
  },
};

/**
 * The answer to a request whose params its method cannot take: JSON-RPC's invalid params with a
 * sentence, rather than the SDK's internal error carrying its schema validator's output.
 */
function paramsRefusal(raw: unknown): JSONRPCMessage | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { jsonrpc, id, method, params } = raw as Record<string, unknown>;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) {
    return undefined;
  }
  const rule = PARAM_RULES[method];
  if (rule === undefined) return undefined;
  const problem =
    params === null || typeof params !== 'object' || Array.isArray(params)
      ? `${method} needs params, an object (got ${kindOf(params)})`
      : rule(params as Record<string, unknown>);
  if (problem === undefined) return undefined;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InvalidParams, message: problem, data: { status: 400, code: 'bad_request' } },
  } as JSONRPCMessage;
}

export function checkPost(headers: IncomingHttpHeaders, body: unknown[]): Checked {
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return {
      refusal: {
        status: 406,
        rpcCode: -32000,
        message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
      },
    };
  }
  const messages: JSONRPCMessage[] = [];
  const positions: number[] = [];
  const early = new Map<number, JSONRPCMessage>();
  for (const [at, raw] of body.entries()) {
    const refused = paramsRefusal(raw);
    if (refused !== undefined) {
      early.set(at, refused);
      continue;
    }
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (!parsed.success)
      return { refusal: { status: 400, rpcCode: -32700, message: 'Parse error: Invalid JSON-RPC message' } };
    messages.push(parsed.data);
    positions.push(at);
  }
  const initializing = messages.some(isInitializeRequest);
  if (initializing && messages.length + early.size > 1) {
    return {
      refusal: {
        status: 400,
        rpcCode: -32600,
        message: 'Invalid Request: Only one initialization request is allowed',
      },
    };
  }
  const version = headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return {
      refusal: {
        status: 400,
        rpcCode: -32000,
        message: `Bad Request: Unsupported protocol version: ${version.slice(0, 32)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      },
    };
  }
  return { messages, positions, early, requests: messages.filter(isJSONRPCRequest).length + early.size };
}

/**
 * The body's requests with their position in the body as id (notifications and responses as they
 * are), and each position's id as the client sent it: two requests of a batch with the same id
 * are then two requests, each answered.
 */
export function renumber(
  messages: JSONRPCMessage[],
  positions: number[],
): { renamed: JSONRPCMessage[]; original: Map<number, string | number> } {
  const original = new Map<number, string | number>();
  const renamed = messages.map((m, i) => {
    if (!isJSONRPCRequest(m)) return m;
    const at = positions[i] as number;
    original.set(at, m.id);
    return { ...m, id: at };
  });
  return { renamed, original };
}

/** The answers by position in the body, each with the id its request came with. */
export function answersInOrder(
  exchanged: JSONRPCMessage[],
  original: ReadonlyMap<number, string | number>,
  early: ReadonlyMap<number, JSONRPCMessage>,
): JSONRPCMessage[] {
  const byPosition = new Map<number, JSONRPCMessage>(early);
  for (const answer of exchanged) {
    const at = (answer as { id: number }).id;
    byPosition.set(at, { ...answer, id: original.get(at) } as JSONRPCMessage);
  }
  return [...byPosition.entries()].sort(([a], [b]) => a - b).map(([, answer]) => answer);
}

/**
 * One POST's messages to the protocol layer and its answers back. Messages the server would send
 * on its own (notifications, requests to the client) have no stream to go on and are dropped, as
 * a stateless server without GET's stream must.
 */
export class JsonTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly answers = new Map<string | number, JSONRPCMessage | undefined>();
  private left = 0;
  private finished?: () => void;

  async start(): Promise<void> {}

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.keep(message);
    return Promise.resolve();
  }

  /** Keeps an answer to one of the exchange's requests; anything else is not this transport's. */
  private keep(message: JSONRPCMessage): void {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const id = message.id as string | number;
    if (!this.answers.has(id) || this.answers.get(id) !== undefined) return;
    this.answers.set(id, message);
    if (--this.left === 0) this.finished?.();
  }

  /** Hands the messages to the protocol layer; resolves with the answers, in the requests' order. */
  exchange(messages: JSONRPCMessage[], headers: IncomingHttpHeaders): Promise<JSONRPCMessage[]> {
    const ids: (string | number)[] = [];
    for (const m of messages) {
      if (!isJSONRPCRequest(m) || this.answers.has(m.id)) continue;
      ids.push(m.id);
      this.answers.set(m.id, undefined);
    }
    this.left = ids.length;
    const done = new Promise<void>((resolve) => (this.finished = resolve));
    const extra: MessageExtraInfo = { requestInfo: { headers } };
    for (const m of messages) this.onmessage?.(m, extra);
    return (this.left === 0 ? Promise.resolve() : done).then(() =>
      ids.map((id) => this.answers.get(id) as JSONRPCMessage),
    );
  }
}
