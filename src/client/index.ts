// The typed client: openapi-fetch over the types generated from /openapi.json (schema.ts), so a
// wrong path, parameter or field name is a compile error. `import { createClient } from
// 'psx-market-data/client'`; the README shows five lines of use.
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

// The client speaks JSON; the CSV forms the document also declares are for other tools.
export type ApiClient = Client<paths, 'application/json'>;

export interface ClientOptions extends FetchClientOptions {
  /** The service's origin, e.g. `http://localhost:8000` (no trailing slash needed). */
  baseUrl: string;
}

export function createClient(options: ClientOptions): ApiClient {
  return createFetchClient<paths, 'application/json'>({
    ...options,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
  });
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
