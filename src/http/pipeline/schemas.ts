// Envelope and error schemas shared by every route, and the helpers that wrap a resource schema in
// the spec's single-object or list envelope.
import { Type, type TProperties, type TSchema } from 'typebox';
import { ERROR_CODES, ERROR_KINDS } from '../../errors.ts';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      status: Type.Integer({ description: 'equals the HTTP status code' }),
      code: Type.Unsafe<string>({
        type: 'string',
        enum: [...ERROR_CODES],
        description: Object.values(ERROR_KINDS)
          .map((k) => `\`${k.code}\` (${k.status}): ${k.message}`)
          .join('; '),
      }),
      message: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false },
);

const timestamp = Type.String({
  description: 'server time of the response, ISO 8601 with UTC offset, to the second',
});
const cached = Type.Boolean({ description: 'true when served from cache' });
const asOf = Type.String({
  description:
    "the time the data describes, ISO 8601 with the market's offset (+05:00): the page's own time where the portal prints one (the index levels' `As of …`); for market data otherwise the fetch when it was made during a session, else the end of the last session (prices do not move in between); for the listing and filings the fetch. Part of the cached answer: a stale copy carries its own, older as_of",
});

const Meta = Type.Object({ timestamp, cached, as_of: asOf });

const ListMeta = Type.Object({
  timestamp,
  cached,
  count: Type.Integer({ description: 'number of items in data' }),
  as_of: asOf,
});

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

const HealthMeta = Type.Object({ timestamp, cached });

/**
 * `portalData`: false for answers not built from portal data (health), whose meta has no as_of.
 * `extraMeta`: meta fields this endpoint adds (documented per endpoint).
 */
export function singleEnvelope(
  resourceId: string,
  description: string,
  portalData = true,
  extraMeta?: TProperties,
): TSchema {
  const base = portalData ? Meta : HealthMeta;
  const meta = extraMeta ? Type.Object({ ...base.properties, ...extraMeta }) : base;
  return Type.Object({ data: ref(resourceId), meta }, { description });
}

/**
 * `meta.missing` of an answer joining several portal pages (src/market/partial.ts): present only
 * when a secondary page could not be had, naming each part left out and why.
 */
export const MissingMeta = {
  missing: Type.Optional(
    Type.Array(
      Type.Object(
        {
          part: Type.String({
            description:
              'what the answer lacks: `dividends`, `capital_changes` or `raw_history` (corporate actions; raw_history: the page failed and the archive’s kept bars stood in, through the day the reason names), `adjustment` or `dividends` (adjusted history), `extras` (the quote’s company-page fields), `board` or `eligible_scrips` (a board: its prices, or which symbols are eligible), `debt_market` (a debt quote’s name from the debt-market page), `screener` (a quote’s or a batch’s valuation fields, breadth’s untraded count, the sector returns’ market caps), `market_watch` (the screen’s change_pct), `history` (the symbol overview: the history page could not be had now and the archive’s older bars stood in, through the day the reason names)',
          }),
          reason: Type.String({ description: 'why, in words: the portal’s failure for that page' }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'present only when a secondary portal page could not be had (unreachable, an error status, or a page that does not parse) and nothing of it is cached: the answer is served from the pages it has, these parts are left out, and it is asked for again within a minute',
      },
    ),
  ),
};

/** `extraMeta`: meta fields this endpoint adds to the list meta (documented per endpoint). */
export function listEnvelope(item: string | TSchema, description: string, extraMeta?: TProperties): TSchema {
  const items = typeof item === 'string' ? ref(item) : item;
  const meta = extraMeta ? Type.Object({ ...ListMeta.properties, ...extraMeta }) : ListMeta;
  return Type.Object({ data: Type.Array(items), meta }, { description });
}

/** One documented error response: the envelope, with what the status means here. */
export const errorRef = (description: string) => Type.Unsafe({ $ref: 'ErrorEnvelope#', description });

const GENERAL_400 =
  'invalid query (code bad_request): a parameter the endpoint does not take, one given empty or more than once, or parameters that contradict each other';

/** The error responses every data route can give. */
export function errorResponses(extra: Record<number, string> = {}): Record<number, TSchema> {
  const base: Record<number, string> = {
    400: GENERAL_400,
    422: "request validation failed (code bad_request): a parameter's value is not accepted (not one of its values, the wrong type or form, out of range), or a required parameter is missing",
    429: 'more than the allowed requests a minute from this IP, or its exchange-fetch budget is spent',
    502: 'the exchange page could not be read (upstream_data_error) or a caller proxy failed (proxy_unreachable)',
    503: 'the exchange was unreachable and nothing is cached (exchange_unavailable)',
    500: 'unexpected server error (internal_error)',
    ...extra,
  };
  // Every endpoint can meet the general 400; an endpoint's own reasons are added to it.
  if (extra[400] !== undefined) base[400] = `${GENERAL_400}; also: ${extra[400]}`;
  return Object.fromEntries(Object.entries(base).map(([status, text]) => [status, errorRef(text)]));
}

export const SymbolParam = Type.Object({
  symbol: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$',
    description: 'a listed symbol, case-insensitive (e.g. ENGRO, 786, UBLP-ETF)',
  }),
});

/** An index code in the path: /indices/:name and the paths under it. */
export const IndexNameParam = Type.Object({ name: Type.String({ maxLength: 40 }) });

const Format = Type.Optional(
  Type.Enum(['json', 'csv', 'parquet'], {
    description:
      "json (default), csv: RFC 4180 with a header row, one row per item (a single object is one row); also chosen by Accept: text/csv, or parquet: Apache Parquet with typed columns (dates DATE, times TIMESTAMP in UTC, prices DOUBLE, volumes INT64, codes and symbols strings) and the meta in the file's key-value metadata (key `meta`); also chosen by Accept: application/vnd.apache.parquet. CSV and Parquet answers carry X-Meta and, when the meta warns, X-Warning. Errors stay JSON.",
  }),
);

/**
 * A route's query parameters. A parameter the endpoint does not take is a 400 naming it and the
 * ones it takes (src/http/pipeline/validation-messages.ts), never silently ignored.
 */
export function query<P extends Record<string, TSchema>>(properties: P) {
  return Type.Object({ ...properties, format: Format }, { additionalProperties: false });
}

/** `format` alone: every data endpoint answers JSON, CSV or Parquet. */
export const FormatQuery = query({});

/** The CSV header row of an empty list: the model's fields, in order. */
export function columnsOf(model: { properties: Record<string, unknown> }): string[] {
  return Object.keys(model.properties);
}

/** The CSV header of a list of symbols. */
export const SYMBOL_COLUMNS = ['symbol'];

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
