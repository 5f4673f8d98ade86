// Target servers standing in for the portal: they answer with what they saw, so a test can tell
// the request arrived intact through the tunnel.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCertificate } from './certs.ts';

export type TargetServer = { port: number; requests: number; close(): Promise<void> };

function handler(secure: boolean, state: { requests: number }): http.RequestListener {
  return (req, res) => {
    state.requests += 1;
    res.setHeader('content-type', 'application/json');
    // proxyAuthorization lets a test prove proxy credentials never reach the target.
    res.end(
      JSON.stringify({
        secure,
        path: req.url,
        host: req.headers.host,
        proxyAuthorization: 'proxy-authorization' in req.headers,
      }),
    );
  };
}

async function listen(server: http.Server, host: string, state: { requests: number }): Promise<TargetServer> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get requests() {
      return state.requests;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function startHttpTarget(host = '127.0.0.1'): Promise<TargetServer> {
  const state = { requests: 0 };
  return listen(http.createServer(handler(false, state)), host, state);
}

export function startHttpsTarget(certificate: TestCertificate, host = '127.0.0.1'): Promise<TargetServer> {
  const state = { requests: 0 };
  return listen(https.createServer(certificate, handler(true, state)), host, state);
}
