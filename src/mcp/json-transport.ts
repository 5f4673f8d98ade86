// The Streamable HTTP transport's POST, for a stateless server that answers in JSON: the messages
// of one request body go to the SDK's protocol layer, and the answers to its requests come back as
// one JSON body. The SDK's own transport does the same through Web Request/Response objects
// (@hono/node-server) and a stream per request, which cost several times what the answer itself
// does (bench/README.md); the rules it applies are the same here: Accept must name JSON and SSE,
// every message must be JSON-RPC, initialize comes alone, and a known MCP-Protocol-Version.
import type { IncomingHttpHeaders } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

/** A refusal of the whole body, as the SDK's transport words and codes it. */
export interface Refusal {
  status: number;
  rpcCode: number;
  message: string;
}

/** What one POST carries, checked: its messages, and whether any is a request to answer. */
export type Checked = { messages: JSONRPCMessage[]; requests: number } | { refusal: Refusal };

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
  for (const raw of body) {
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (!parsed.success)
      return { refusal: { status: 400, rpcCode: -32700, message: 'Parse error: Invalid JSON-RPC message' } };
    messages.push(parsed.data);
  }
  const initializing = messages.some(isInitializeRequest);
  if (initializing && messages.length > 1) {
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
  return { messages, requests: messages.filter(isJSONRPCRequest).length };
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
