// A JSON-RPC error as this server words it. The SDK's McpError puts "MCP error <code>: " before its
// message, and the SDK's client puts the same prefix before every error it receives, so a message
// sent from an McpError reads "MCP error -32602: MCP error -32602: …" to the client's user; the
// protocol layer sends any thrown error's `code`, `message` and `data` as they are.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** The request's params are not what its method takes (JSON-RPC's invalid params, -32602). */
export function invalidParams(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, { status: 400, code: 'bad_request' });
}

/** What a client sent, in a message: JSON, cut short. */
export function shownValue(value: unknown, max = 32): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= max ? json : `${json.slice(0, max)}…`;
}

/** A value's kind in words, for "must be an object (got an array)". */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value} ${shownValue(value)}`;
}
