// The HTTP-proxy dispatcher: undici's ProxyAgent, pointed at the pinned IP, always tunnelling
// with CONNECT. ProxyAgent hands the CONNECT leg to a dispatcher built by `clientFactory`; ours
// (TunnelPool) bounds the wait for the proxy's answer and turns every failure of that leg into
// ProxyUnreachableError. Mapping there, rather than on the request's error, matters: undici treats
// a raw UND_ERR_SOCKET from a connect function as retryable and would redial the proxy forever.
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { refuseSecondLookup, type TargetTrust } from './connect-options.ts';
import { connectRequestFailure, connectStatusFailure, type ProxyErrorContext } from './proxy-errors.ts';
import type { PinnedProxy } from './resolve.ts';

type ConnectOptions = Parameters<Pool['connect']>[0];
type ConnectData = Dispatcher.ConnectData;
type ConnectCallback = (err: Error | null, data: ConnectData) => void;

class TunnelPool extends Pool {
  readonly #context: ProxyErrorContext;

  constructor(origin: URL, options: Pool.Options, context: ProxyErrorContext) {
    super(origin, options);
    this.#context = context;
  }

  // ProxyAgent uses the promise form; the callback form is kept so the override stays a Pool.
  override connect(options: ConnectOptions): Promise<ConnectData>;
  override connect(options: ConnectOptions, callback: ConnectCallback): void;
  override connect(options: ConnectOptions, callback?: ConnectCallback): Promise<ConnectData> | void {
    const result = this.#tunnel(super.connect(options));
    if (callback === undefined) return result;
    result.then(
      (data) => callback(null, data),
      (err: Error) => callback(err, undefined as unknown as ConnectData),
    );
  }

  async #tunnel(pending: Promise<ConnectData>): Promise<ConnectData> {
    let data: ConnectData;
    try {
      data = await pending;
    } catch (err) {
      throw connectRequestFailure(err, this.#context);
    }
    if (data.statusCode !== 200) {
      data.socket.on('error', () => undefined).destroy();
      throw connectStatusFailure(data.statusCode, this.#context);
    }
    return data;
  }
}

export type HttpTunnelOptions = {
  connectTimeoutMs: number;
  tls: TargetTrust;
  errorContext: ProxyErrorContext;
};

function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

export function httpTunnelDispatcher(pinned: PinnedProxy, options: HttpTunnelOptions): Dispatcher {
  const { spec } = pinned;
  const host = pinned.family === 6 ? `[${pinned.address}]` : pinned.address;
  const credentials =
    spec.username !== undefined && spec.password !== undefined
      ? { token: basicAuth(spec.username, spec.password) }
      : {};
  return new ProxyAgent({
    // The pinned IP, never the name: the proxy is not looked up again.
    uri: `http://${host}:${spec.port}`,
    ...credentials,
    // Plain-http targets would otherwise be sent as absolute-URI requests; CONNECT keeps one
    // code path and one set of failure modes.
    proxyTunnel: true,
    proxyTls: { timeout: options.connectTimeoutMs, lookup: refuseSecondLookup },
    // `servername` is left unset so SNI and the certificate check use the target's host name.
    requestTls: { ...options.tls, rejectUnauthorized: true, timeout: options.connectTimeoutMs },
    clientFactory: (origin: URL, factoryOptions: object) =>
      new TunnelPool(
        origin,
        { ...(factoryOptions as Pool.Options), headersTimeout: options.connectTimeoutMs },
        options.errorContext,
      ),
  });
}
