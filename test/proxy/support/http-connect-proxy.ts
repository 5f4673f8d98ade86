// A real HTTP CONNECT proxy (node:http 'connect' event), optionally demanding Basic credentials.
// It records what it was asked so tests can check what the dialer sent.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { resolveToLoopback } from './loopback-names.ts';

export type ConnectRecord = { target: string; proxyAuthorization?: string };

export type HttpConnectProxy = {
  host: string;
  port: number;
  records: ConnectRecord[];
  close(): Promise<void>;
};

function splitTarget(target: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
  return { host: match?.[1] ?? '', port: Number(match?.[2] ?? 0) };
}

function answer(socket: net.Socket, status: string, extra = ''): void {
  socket.end(`HTTP/1.1 ${status}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
}

export async function startHttpConnectProxy(
  options: { credentials?: { username: string; password: string }; host?: string } = {},
): Promise<HttpConnectProxy> {
  const records: ConnectRecord[] = [];
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`
    : undefined;
  const server = http.createServer((_req, res) => {
    res.statusCode = 405;
    res.end();
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const proxyAuthorization = req.headers['proxy-authorization'];
    records.push({ target: req.url ?? '', proxyAuthorization });
    client.on('error', () => undefined);
    if (expected !== undefined && proxyAuthorization !== expected) {
      answer(client, '407 Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="test"\r\n');
      return;
    }
    const { host, port } = splitTarget(req.url ?? '');
    const address = resolveToLoopback(host);
    if (address === undefined) {
      answer(client, '502 Bad Gateway');
      return;
    }
    const upstream = net.connect({ host: address, port });
    upstream.on('error', () => answer(client, '502 Bad Gateway'));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    host,
    port: (server.address() as AddressInfo).port,
    records,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
