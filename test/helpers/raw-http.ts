// One HTTP/1.1 exchange over a raw TCP socket: the request bytes reach the server exactly as
// written (malformed request lines, raw non-ASCII, lower-case methods), which no HTTP client sends.
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends `request` (the whole request, bytes as given) and reads until the server closes. */
export function rawRequest(base: string, request: Buffer | string, timeoutMs = 20_000): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the answer is read is the server closing
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err as Error);
      }
    });
    socket.write(request);
  });
}

function parseResponse(raw: Buffer): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no response head in ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!Number.isInteger(status)) throw new Error(`bad status line ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined)
    body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
