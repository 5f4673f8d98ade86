// Turns the many ways a proxy can fail (TCP errors, undici errors on the CONNECT leg, messages from
// the socks package) into ProxyUnreachableError with a message a caller can act on. Messages are
// built only from the redacted display form and fixed wording. The original error is never
// attached as `cause`: the socks package's errors carry their full options, password included,
// and a logger serialising the cause chain would print it.
import { ProxyUnreachableError } from '../errors.ts';

/** What the mapping needs to know about the proxy; deliberately no credentials. */
export type ProxyErrorContext = {
  /** ProxySpec.display: scheme://[***@]host:port */
  display: string;
  hasCredentials: boolean;
  connectTimeoutMs: number;
};

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code) ? code : undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The proxy could not be connected to at the TCP level. */
export function tcpFailure(err: unknown, ctx: ProxyErrorContext): ProxyUnreachableError {
  const code = codeOf(err) ?? /\b(E[A-Z]{4,})\b/.exec(messageOf(err))?.[1];
  switch (code) {
    case 'ECONNREFUSED':
      return new ProxyUnreachableError(`proxy ${ctx.display} refused the connection (nothing listening?)`);
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return connectTimeout(ctx);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return new ProxyUnreachableError(`proxy ${ctx.display} is unreachable (${code})`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return new ProxyUnreachableError(`proxy ${ctx.display} closed the connection during the handshake`);
    default:
      return new ProxyUnreachableError(
        `could not connect to proxy ${ctx.display}${code ? ` (${code})` : ''}`,
      );
  }
}

export function connectTimeout(ctx: ProxyErrorContext): ProxyUnreachableError {
  return new ProxyUnreachableError(
    `proxy ${ctx.display} did not accept a TCP connection within ${ctx.connectTimeoutMs} ms`,
  );
}

/** The HTTP proxy's CONNECT request failed before a status line arrived. */
export function connectRequestFailure(err: unknown, ctx: ProxyErrorContext): ProxyUnreachableError {
  const code = codeOf(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new ProxyUnreachableError(
      `proxy ${ctx.display} did not answer the CONNECT request within ${ctx.connectTimeoutMs} ms`,
    );
  }
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
    return new ProxyUnreachableError(
      `proxy ${ctx.display} closed the connection during the CONNECT handshake`,
    );
  }
  if (code?.startsWith('HPE_') || (err instanceof Error && err.name === 'HTTPParserError')) {
    return new ProxyUnreachableError(
      `proxy ${ctx.display} did not answer CONNECT with valid HTTP; is it an HTTP proxy?`,
    );
  }
  return tcpFailure(err, ctx);
}

/** The HTTP proxy answered CONNECT with something other than 200. */
export function connectStatusFailure(statusCode: number, ctx: ProxyErrorContext): ProxyUnreachableError {
  if (statusCode === 407) {
    return new ProxyUnreachableError(
      ctx.hasCredentials
        ? `proxy ${ctx.display} rejected the credentials (407 Proxy Authentication Required)`
        : `proxy ${ctx.display} requires credentials (407 Proxy Authentication Required); add user:pass@`,
    );
  }
  return new ProxyUnreachableError(
    `proxy ${ctx.display} refused to open a tunnel to the exchange (CONNECT answered ${statusCode})`,
  );
}

// The socks package reports failures only as message text (its constants), so match on that.
const SOCKS_REPLY = /^Socks5 proxy rejected connection - (\w+)$/;

/** The SOCKS5 handshake failed (the TCP connection itself had succeeded). */
export function socksFailure(err: unknown, ctx: ProxyErrorContext): ProxyUnreachableError {
  const message = messageOf(err);
  const reply = SOCKS_REPLY.exec(message)?.[1];
  if (reply !== undefined) {
    return new ProxyUnreachableError(
      `proxy ${ctx.display} could not connect to the exchange (SOCKS5 reply: ${reply})`,
    );
  }
  if (message === 'Proxy connection timed out') {
    return new ProxyUnreachableError(
      `proxy ${ctx.display} did not complete the SOCKS5 handshake within ${ctx.connectTimeoutMs} ms`,
    );
  }
  if (message === 'Socks5 Authentication failed') {
    return new ProxyUnreachableError(`proxy ${ctx.display} rejected the credentials`);
  }
  if (message.includes('no accepted authentication type')) {
    return new ProxyUnreachableError(
      ctx.hasCredentials
        ? `proxy ${ctx.display} accepts none of the offered SOCKS5 authentication methods`
        : `proxy ${ctx.display} requires credentials; add user:pass@`,
    );
  }
  if (message.startsWith('Received invalid Socks5')) {
    return new ProxyUnreachableError(`proxy ${ctx.display} did not answer like a SOCKS5 proxy`);
  }
  if (message === 'Socket closed' || /\b(ECONNRESET|EPIPE)\b/.test(message)) {
    return new ProxyUnreachableError(
      `proxy ${ctx.display} closed the connection during the SOCKS5 handshake`,
    );
  }
  return new ProxyUnreachableError(`SOCKS5 handshake with proxy ${ctx.display} failed`);
}
