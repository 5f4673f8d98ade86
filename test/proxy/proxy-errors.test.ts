// The failure modes the end-to-end tests cannot stage on loopback (a TCP connect that times out,
// unreachable networks) are checked here against the mapping directly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProxyUnreachableError } from '../../src/errors.ts';
import {
  connectRequestFailure,
  connectStatusFailure,
  socksFailure,
  tcpFailure,
  type ProxyErrorContext,
} from '../../src/proxy/proxy-errors.ts';

const ctx: ProxyErrorContext = {
  display: 'socks5://***@203.0.113.5:1080',
  hasCredentials: true,
  connectTimeoutMs: 5000,
};
const noCreds: ProxyErrorContext = { ...ctx, display: 'http://203.0.113.5:3128', hasCredentials: false };
const withCode = (code: string, message = code): Error => Object.assign(new Error(message), { code });

describe('proxy error mapping', () => {
  const cases: Array<[string, ProxyUnreachableError, RegExp]> = [
    ['TCP refused', tcpFailure(withCode('ECONNREFUSED'), ctx), /refused the connection/],
    [
      'TCP timeout (undici)',
      tcpFailure(withCode('UND_ERR_CONNECT_TIMEOUT'), ctx),
      /did not accept a TCP connection within 5000 ms/,
    ],
    [
      'TCP timeout (kernel)',
      tcpFailure(withCode('ETIMEDOUT'), ctx),
      /did not accept a TCP connection within 5000 ms/,
    ],
    ['host unreachable', tcpFailure(withCode('EHOSTUNREACH'), ctx), /is unreachable \(EHOSTUNREACH\)/],
    [
      'code only in message',
      tcpFailure(new Error('connect ENETUNREACH 203.0.113.5:1080'), ctx),
      /unreachable \(ENETUNREACH\)/,
    ],
    [
      'unknown',
      tcpFailure(new Error('weird'), ctx),
      /^could not connect to proxy socks5:\/\/\*\*\*@203\.0\.113\.5:1080$/,
    ],
    [
      'CONNECT unanswered',
      connectRequestFailure(withCode('UND_ERR_HEADERS_TIMEOUT'), noCreds),
      /did not answer the CONNECT request within 5000 ms/,
    ],
    [
      'CONNECT closed',
      connectRequestFailure(withCode('UND_ERR_SOCKET'), noCreds),
      /closed the connection during the CONNECT handshake/,
    ],
    [
      'CONNECT garbage',
      connectRequestFailure(withCode('HPE_INVALID_CONSTANT'), noCreds),
      /is it an HTTP proxy/,
    ],
    ['407 without credentials', connectStatusFailure(407, noCreds), /requires credentials/],
    ['407 with credentials', connectStatusFailure(407, ctx), /rejected the credentials/],
    ['403', connectStatusFailure(403, noCreds), /refused to open a tunnel .*403/],
    [
      'SOCKS timeout',
      socksFailure(new Error('Proxy connection timed out'), ctx),
      /did not complete the SOCKS5 handshake within 5000 ms/,
    ],
    ['SOCKS auth', socksFailure(new Error('Socks5 Authentication failed'), ctx), /rejected the credentials/],
    [
      'SOCKS no method',
      socksFailure(
        new Error('Received invalid Socks5 initial handshake (no accepted authentication type)'),
        noCreds,
      ),
      /requires credentials/,
    ],
    [
      'SOCKS reply',
      socksFailure(new Error('Socks5 proxy rejected connection - NotAllowed'), ctx),
      /SOCKS5 reply: NotAllowed/,
    ],
    [
      'SOCKS closed',
      socksFailure(new Error('Socket closed'), ctx),
      /closed the connection during the SOCKS5 handshake/,
    ],
    ['SOCKS other', socksFailure(new Error('something else'), ctx), /SOCKS5 handshake with proxy .* failed/],
  ];
  for (const [name, error, pattern] of cases) {
    it(name, () => {
      assert.ok(error instanceof ProxyUnreachableError, 'class');
      assert.equal(error.statusCode, 502);
      assert.match(error.message, pattern);
      assert.equal(error.cause, undefined);
    });
  }

  it('never copies the original error, which may carry the SOCKS options and password', () => {
    const socksError = Object.assign(new Error('Socks5 Authentication failed'), {
      options: { proxy: { userId: 'alice', password: 'hunter2-secret' } },
    });
    const mapped = socksFailure(socksError, ctx);
    assert.ok(!JSON.stringify({ ...mapped, message: mapped.message }).includes('hunter2'), 'password copied');
    assert.equal(mapped.cause, undefined);
  });
});
