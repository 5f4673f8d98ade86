// The cold burst's client: 1,000 raw TCP connections, one GET written to each at once, every
// answer read by counting bytes to its Content-Length. An HTTP client library in the same process
// (undici's Pool) spent ~260 ms of this 2-core machine's CPU just receiving 1,000 gzip answers
// from the bare server, which the burst would have charged to the service; this client does no
// more than the kernel requires.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Answered {
  /** Burst start → last body byte. */
  ms: number;
  status: number;
  bodyBytes: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** Opens `count` connections, a batch at a time (1,000 at once overflow a listen backlog of 511). */
export async function openConnections(origin: string, count: number, batch = 100): Promise<Socket[]> {
  const { hostname, port } = new URL(origin);
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i += batch) {
    const opened = await Promise.all(
      Array.from(
        { length: Math.min(batch, count - i) },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect({ host: hostname, port: Number(port), noDelay: true });
            socket.once('connect', () => resolve(socket));
            socket.once('error', reject);
          }),
      ),
    );
    sockets.push(...opened);
  }
  return sockets;
}

/** Writes one GET to every socket at once; resolves when every answer has fully arrived. */
export function burstOn(
  sockets: Socket[],
  host: string,
  path: string,
  headers: Record<string, string>,
): Promise<Answered[]> {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const request = Buffer.from(`GET ${path} HTTP/1.1\r\nhost: ${host}\r\n${extra}\r\n`);
  const started = performance.now();
  return Promise.all(sockets.map((socket) => readOne(socket, started, request)));
}

function readOne(socket: Socket, started: number, request: Buffer): Promise<Answered> {
  return new Promise((resolve) => {
    let head: Buffer = Buffer.alloc(0);
    let status = 0;
    let expected = -1;
    let received = 0;
    const finish = (ok: boolean): void => {
      socket.removeListener('data', onData);
      socket.removeListener('close', onClose);
      resolve({ ms: performance.now() - started, status: ok ? status : 0, bodyBytes: received });
    };
    const onClose = (): void => finish(false);
    const onData = (chunk: Buffer): void => {
      if (expected < 0) {
        head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
        const end = head.indexOf(HEADER_END);
        if (end < 0) return;
        const text = head.subarray(0, end).toString('latin1');
        status = Number(text.slice(9, 12));
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
        // The service and the bare server always send a length; anything else is a failure here.
        if (length === null) return finish(false);
        expected = Number(length[1]);
        received = head.length - end - HEADER_END.length;
      } else {
        received += chunk.length;
      }
      if (received >= expected) finish(true);
    };
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(request);
  });
}

export function closeAll(sockets: Socket[]): void {
  for (const socket of sockets) socket.destroy();
}
