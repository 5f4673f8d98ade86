// Envelope and error schemas shared by every route, and the helpers that wrap a resource schema in
// the spec's single-object or list envelope.
import { Type, type TSchema } from 'typebox';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      status: Type.Integer({ description: 'equals the HTTP status code' }),
      code: Type.String({
        description:
          'bad_request, not_found, method_not_allowed, rate_limited, exchange_unavailable, upstream_data_error, proxy_unreachable, internal_error',
      }),
      message: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false },
);

const Meta = Type.Object({
  timestamp: Type.String({
    description: 'server time of the response, ISO 8601 with UTC offset, to the second',
  }),
  cached: Type.Boolean({ description: 'true when served from cache' }),
});

const ListMeta = Type.Object({
  timestamp: Type.String({
    description: 'server time of the response, ISO 8601 with UTC offset, to the second',
  }),
  cached: Type.Boolean({ description: 'true when served from cache' }),
  count: Type.Integer({ description: 'number of items in data' }),
});

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

export function singleEnvelope(resourceId: string, description: string): TSchema {
  return Type.Object({ data: ref(resourceId), meta: Meta }, { description });
}

export function listEnvelope(item: string | TSchema, description: string): TSchema {
  const items = typeof item === 'string' ? ref(item) : item;
  return Type.Object({ data: Type.Array(items), meta: ListMeta }, { description });
}

const errorRef = (description: string) => Type.Unsafe({ $ref: 'ErrorEnvelope#', description });

/** The error responses every data route can give. */
export function errorResponses(extra: Record<number, string> = {}): Record<number, TSchema> {
  const base: Record<number, string> = {
    422: 'request validation failed (code bad_request)',
    429: 'more than the allowed requests a minute from this IP, or its exchange-fetch budget is spent',
    502: 'the exchange page could not be read (upstream_data_error) or a caller proxy failed (proxy_unreachable)',
    503: 'the exchange was unreachable and nothing is cached (exchange_unavailable)',
    500: 'unexpected server error (internal_error)',
    ...extra,
  };
  return Object.fromEntries(Object.entries(base).map(([status, text]) => [status, errorRef(text)]));
}

export const SymbolParam = Type.Object({
  symbol: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$',
    description: 'a listed symbol, case-insensitive (e.g. ENGRO, 786, UBLP-ETF)',
  }),
});

/** `format` on every list endpoint: JSON (default) or CSV (also chosen by `Accept: text/csv`). */
export const FormatQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      description: 'csv: RFC 4180 with a header row (also chosen by Accept: text/csv); errors stay JSON',
    }),
  ),
});

/** The spec's optional proxy header, documented on /screener; read the same way on every data route. */
export const ProxyHeaders = Type.Object({
  'x-exchange-proxy': Type.Optional(
    // No maxLength here: an over-long value is the proxy parser's 400, like every other bad value.
    Type.String({
      description:
        'http://, socks5:// or socks5h:// proxy (explicit port, optional user:pass@) for this request’s exchange fetches; must resolve to a public address; honoured only when the server enables passthrough (400 otherwise); not contacted when the answer is cached',
    }),
  ),
});
