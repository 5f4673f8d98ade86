// The typed client: openapi-fetch over the types generated from /openapi.json (schema.ts), so a
// wrong path, parameter or field name is a compile error. `import { createClient } from
// 'psx-market-data-client'`; the README shows three lines of use. The package depends on nothing of
// the service's code: schema.ts is generated into it by `npm run gen:client`.
import createFetchClient, { type Client, type ClientOptions as FetchClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, paths } from './schema.ts';

type Schemas = components['schemas'];
export type Quote = Schemas['Quote'];
export type HistoricalRow = Schemas['HistoricalRow'];
export type FundamentalsRow = Schemas['FundamentalsRow'];
export type IndexConstituent = Schemas['IndexConstituent'];
export type IndexLevel = Schemas['IndexLevel'];
export type SectorSummary = Schemas['SectorSummary'];
export type ScreenerRow = Schemas['ScreenerRow'];
export type MarketSummary = Schemas['MarketSummary'];
/** The body of every error answer: `{error: {status, code, message}}`. */
export type ErrorEnvelope = Schemas['ErrorEnvelope'];

// `?format=csv` answers text, which the JSON methods would fail to parse: they do not take it
// (getCsv does). The service's document lists `format` on every list endpoint's query.
type WithoutFormat<Params> = Params extends { query?: infer Query }
  ? [Query] extends [never]
    ? Params
    : Omit<Params, 'query'> & { query?: QueryWithoutFormat<NonNullable<Query>> }
  : Params;
// An empty object type would take any object, `format` included: no parameters left is `never`.
type QueryWithoutFormat<Query> = [keyof Omit<Query, 'format'>] extends [never]
  ? never
  : Omit<Query, 'format'>;
type JsonOperation<Operation> = Operation extends { parameters: infer Params }
  ? Omit<Operation, 'parameters'> & { parameters: WithoutFormat<Params> }
  : Operation;

/** The API's paths as the JSON methods see them: every answer is `application/json`. */
export type JsonPaths = {
  [Path in keyof paths]: {
    [Method in keyof paths[Path]]: Method extends 'get'
      ? JsonOperation<paths[Path][Method]>
      : paths[Path][Method];
  };
};

/** The paths that also answer CSV (`?format=csv`). */
export type CsvPath = {
  [Path in keyof paths]: paths[Path]['get'] extends { parameters: { query?: infer Query } }
    ? 'format' extends keyof NonNullable<Query>
      ? [Query] extends [never]
        ? never
        : Path
      : never
    : never;
}[keyof paths];

type CsvParams<Path extends CsvPath> = JsonPaths[Path]['get'] extends { parameters: infer Params }
  ? Params
  : never;

export type ApiClient = Client<JsonPaths, 'application/json'>;

export interface ClientOptions extends FetchClientOptions {
  /** The service's origin, e.g. `http://localhost:8000` (no trailing slash needed). */
  baseUrl: string;
}

export function createClient(options: ClientOptions): ApiClient {
  return createFetchClient<JsonPaths, 'application/json'>({
    ...options,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
  });
}

/**
 * A list endpoint's answer as CSV text (RFC 4180, header row), or an ApiError (errors stay JSON):
 * `const csv = await getCsv(api, '/screener')`.
 */
export function getCsv<Path extends CsvPath>(
  api: ApiClient,
  path: Path,
  ...[init]: Partial<CsvParams<Path>> extends CsvParams<Path>
    ? [init?: { params?: CsvParams<Path> }]
    : [init: { params: CsvParams<Path> }]
): Promise<string> {
  const given = (init?.params ?? {}) as { query?: Record<string, unknown> };
  const request = { params: { ...given, query: { ...given.query, format: 'csv' } }, parseAs: 'text' };
  // The JSON method's types know neither `format` nor text: this one call goes around them.
  const get = api.GET as unknown as (path: string, init: object) => Promise<Outcome<string>>;
  return unwrap(get(path, request));
}

/** An error answer from the service, with its envelope's code and message. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Outcome<T> {
  data?: T;
  error?: ErrorEnvelope | unknown;
  response: Response;
}

/**
 * The success body of a call, or an ApiError carrying the service's own message:
 * `const { data } = await unwrap(api.GET('/indices'))`.
 */
export async function unwrap<T>(call: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (error === undefined && data !== undefined) return data;
  const envelope = isErrorEnvelope(error) ? error.error : undefined;
  throw new ApiError(
    envelope?.status ?? response.status,
    envelope?.code ?? 'http_error',
    envelope?.message ?? `HTTP ${response.status} ${response.statusText}`.trim(),
  );
}

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const inner = (value as { error?: unknown } | null | undefined)?.error as
    Record<string, unknown> | undefined;
  return (
    typeof inner === 'object' &&
    inner !== null &&
    typeof inner.message === 'string' &&
    typeof inner.code === 'string'
  );
}
