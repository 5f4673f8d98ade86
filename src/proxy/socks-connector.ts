// An undici `connect` function that reaches the target through a SOCKS5 proxy. undici's own
// Socks5ProxyAgent is experimental and refuses socks5h://, so the handshake is done with the
// `socks` package on a TCP connection we open ourselves to the pinned address. Opening it
// ourselves gives two separate deadlines (TCP accept, then handshake) and precise messages.
import { lookup } from 'node:dns/promises';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { SocksClient, type SocksClientOptions } from 'socks';
import { errors, type buildConnector } from 'undici';
import { refuseSecondLookup, type TargetTrust } from './connect-options.ts';
import { connectTimeout, socksFailure, tcpFailure, type ProxyErrorContext } from './proxy-errors.ts';
import type { PinnedProxy } from './resolve.ts';

/** Resolves the target (the portal) for socks5://, where this server, not the proxy, resolves it. */
export type TargetLookup = (host: string) => Promise<string>;

export const systemTargetLookup: TargetLookup = async (host) => (await lookup(host)).address;

export type SocksConnectorOptions = {
  connectTimeoutMs: number;
  tls: TargetTrust;
  targetLookup: TargetLookup;
  errorContext: ProxyErrorContext;
};

/** Runs `start` with a deadline; `onTimeout` cleans up and supplies the error. */
function withDeadline<T>(
  ms: number,
  start: (settle: (err: Error | null, value?: T) => void) => void,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => settle(onTimeout()), ms);
    function settle(err: Error | null, value?: T): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err !== null) reject(err);
      else resolve(value as T);
    }
    start(settle);
  });
}

function openTcp(pinned: PinnedProxy, options: SocksConnectorOptions): Promise<Socket> {
  const socket = netConnect({
    host: pinned.address,
    port: pinned.spec.port,
    family: pinned.family,
    lookup: refuseSecondLookup,
  });
  socket.setNoDelay(true).setKeepAlive(true, 60_000);
  return withDeadline<Socket>(
    options.connectTimeoutMs,
    (settle) => {
      socket.once('connect', () => settle(null, socket));
      // Kept attached (like undici's own connector) so a late error can never go unhandled.
      socket.on('error', (err) => {
        socket.destroy();
        settle(tcpFailure(err, options.errorContext));
      });
    },
    () => {
      socket.destroy();
      return connectTimeout(options.errorContext);
    },
  );
}

async function handshake(
  tcp: Socket,
  pinned: PinnedProxy,
  target: { host: string; port: number },
  options: SocksConnectorOptions,
): Promise<Socket> {
  const { spec } = pinned;
  const socksOptions: SocksClientOptions = {
    proxy: { host: pinned.address, port: spec.port, type: 5 },
    command: 'connect',
    destination: target,
    timeout: options.connectTimeoutMs,
    existing_socket: tcp,
  };
  if (spec.username !== undefined && spec.password !== undefined) {
    socksOptions.proxy.userId = spec.username;
    socksOptions.proxy.password = spec.password;
  }
  try {
    return (await SocksClient.createConnection(socksOptions)).socket;
  } catch (err) {
    tcp.destroy();
    throw socksFailure(err, options.errorContext);
  }
}

function startTls(socket: Socket, host: string, options: SocksConnectorOptions): Promise<TLSSocket> {
  const tlsSocket = tlsConnect({
    ...options.tls,
    socket,
    host,
    // SNI must be a name; for an IP target Node checks the certificate against `host` instead.
    servername: isIP(host) === 0 ? host : undefined,
    rejectUnauthorized: true,
    ALPNProtocols: ['http/1.1'],
  });
  return withDeadline<TLSSocket>(
    options.connectTimeoutMs,
    (settle) => {
      tlsSocket.once('secureConnect', () => settle(null, tlsSocket));
      // The tunnel is up, so a failure here is the target's (e.g. its certificate), not the
      // proxy's: the error passes through unchanged for the caller to treat as an exchange error.
      tlsSocket.on('error', (err) => {
        tlsSocket.destroy();
        settle(err);
      });
    },
    () => {
      tlsSocket.destroy();
      return new errors.ConnectTimeoutError(`TLS handshake with ${host} through the proxy timed out`);
    },
  );
}

async function establish(
  pinned: PinnedProxy,
  request: buildConnector.Options,
  options: SocksConnectorOptions,
): Promise<Socket> {
  const host = request.hostname.replace(/^\[(.*)\]$/, '$1');
  const https = request.protocol === 'https:';
  const port = request.port ? Number(request.port) : https ? 443 : 80;
  // socks5h hands the name to the proxy (ATYP 3); socks5 sends the address we resolved (ATYP 1/4).
  const destination =
    pinned.spec.scheme === 'socks5h' || isIP(host) !== 0 ? host : await options.targetLookup(host);
  const tcp = await openTcp(pinned, options);
  const socket = await handshake(tcp, pinned, { host: destination, port }, options);
  return https ? startTls(socket, host, options) : socket;
}

export function socksConnector(
  pinned: PinnedProxy,
  options: SocksConnectorOptions,
): buildConnector.connector {
  return (request, callback) => {
    establish(pinned, request, options).then(
      (socket) => callback(null, socket),
      (err: Error) => callback(err, null),
    );
  };
}
