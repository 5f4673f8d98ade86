// A tiny SOCKS5 proxy (RFC 1928 CONNECT, RFC 1929 user/password) over node:net. It records the
// address type and target of every request so tests can assert that socks5:// sends an IP
// (ATYP 1/4) and socks5h:// sends the name (ATYP 3).
import net, { type AddressInfo } from 'node:net';
import { resolveToLoopback } from './loopback-names.ts';

export type SocksRecord = { atyp: number; host: string; port: number; authenticated: boolean };

export type Socks5Proxy = {
  port: number;
  connections: number;
  records: SocksRecord[];
  close(): Promise<void>;
};

/** Reads exact byte counts from a socket that is still in the handshake. */
class ByteReader {
  #buffer = Buffer.alloc(0);
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#wake?.();
    });
  }

  async read(n: number): Promise<Buffer> {
    while (this.#buffer.length < n) {
      if (this.#closed) throw new Error('client went away');
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const out = this.#buffer.subarray(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return out;
  }

  /** Whatever arrived after the handshake, to forward before piping. */
  rest(): Buffer {
    return this.#buffer;
  }
}

const REPLY = (code: number): Buffer => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);

async function readTarget(reader: ByteReader): Promise<{ atyp: number; host: string; port: number }> {
  const [version, command, , atyp] = await reader.read(4);
  if (version !== 5 || command !== 1) throw new Error('unsupported request');
  let host: string;
  if (atyp === 1) host = [...(await reader.read(4))].join('.');
  else if (atyp === 4) {
    const bytes = await reader.read(16);
    const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16));
    host = new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
  } else if (atyp === 3) {
    const [length] = await reader.read(1);
    host = (await reader.read(length ?? 0)).toString('latin1');
  } else throw new Error('bad address type');
  const port = (await reader.read(2)).readUInt16BE(0);
  return { atyp: atyp ?? 0, host, port };
}

async function serve(
  client: net.Socket,
  credentials: { username: string; password: string } | undefined,
  records: SocksRecord[],
): Promise<void> {
  const reader = new ByteReader(client);
  const [version, count] = await reader.read(2);
  if (version !== 5) return void client.destroy();
  const methods = [...(await reader.read(count ?? 0))];
  const wanted = credentials ? 2 : 0;
  if (!methods.includes(wanted)) return void client.end(Buffer.from([5, 0xff]));
  client.write(Buffer.from([5, wanted]));
  if (credentials) {
    const [, userLength] = await reader.read(2);
    const username = (await reader.read(userLength ?? 0)).toString('utf8');
    const [passLength] = await reader.read(1);
    const password = (await reader.read(passLength ?? 0)).toString('utf8');
    const ok = username === credentials.username && password === credentials.password;
    client.write(Buffer.from([1, ok ? 0 : 1]));
    if (!ok) return void client.end();
  }
  const target = await readTarget(reader);
  records.push({ ...target, authenticated: credentials !== undefined });
  const address = resolveToLoopback(target.host);
  if (address === undefined) return void client.end(REPLY(4)); // host unreachable
  const upstream = net.connect({ host: address, port: target.port });
  upstream.on('error', () => client.end(REPLY(5))); // connection refused
  upstream.once('connect', () => {
    client.removeAllListeners('data');
    client.write(REPLY(0));
    const early = reader.rest();
    if (early.length > 0) upstream.write(early);
    upstream.pipe(client).pipe(upstream);
  });
}

export async function startSocks5Proxy(
  options: { credentials?: { username: string; password: string } } = {},
): Promise<Socks5Proxy> {
  const records: SocksRecord[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    connections += 1;
    sockets.add(client);
    client.on('error', () => undefined).on('close', () => sockets.delete(client));
    serve(client, options.credentials, records).catch(() => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    records,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
