// How the dashboard talks to the service it was served by: the project's typed client for the
// endpoints its types know, plain fetch for the rest (see data.ts), and one error vocabulary for
// both that a person can act on (no status codes, no patterns on screen).
import { createClient } from 'psx-market-data-client';
import { readServicePaths } from './openapi-paths.ts';

export const api = createClient({ baseUrl: window.location.origin });

/** An answer with what the header needs to say how old it is. */
export interface Fetched<T> {
  data: T;
  /** ISO 8601: the data's own as-of time when the service gives one, else when it was fetched. */
  asOf: string | null;
  /** Served from a copy kept while the portal was unreachable. */
  stale: boolean;
}

/** A failed call, in the service's terms (its envelope's code), with the wait it asked for. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, from Retry-After; null when the service did not say. */
    readonly retryAfterSec: number | null,
  ) {
    super(message);
  }
}

/** The service has no such endpoint (an older or newer build): the part that needs it is left out. */
export class NotAvailable extends Error {
  override name = 'NotAvailable';
}

interface Meta {
  timestamp?: string;
  as_of?: string | null;
  cached?: boolean;
}

function asOfOf(meta: Meta | undefined, response: Response): string | null {
  if (typeof meta?.as_of === 'string') return meta.as_of;
  const modified = response.headers.get('last-modified');
  if (modified && !Number.isNaN(Date.parse(modified))) return new Date(modified).toISOString();
  return meta?.timestamp ?? null;
}

function retryAfter(response: Response): number | null {
  const header = response.headers.get('retry-after');
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function failure(response: Response, body: unknown): Error {
  const env = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof env?.code === 'string' ? env.code : 'http_error';
  const message = typeof env?.message === 'string' ? env.message : response.statusText;
  // The service's 404 for a path it does not route at all (src/http/app.ts).
  if (response.status === 404 && message.startsWith('no such endpoint')) return new NotAvailable(message);
  return new ServiceError(response.status, code, message, retryAfter(response));
}

function settle<T>(response: Response, body: unknown): Fetched<T> {
  const { data, meta } = body as { data: T; meta?: Meta };
  return { data, asOf: asOfOf(meta, response), stale: response.headers.get('x-cache') === 'STALE' };
}

/** A typed-client call (`api.GET(...)`) as a Fetched answer or a thrown ServiceError. */
export async function viaClient<T>(
  call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<Fetched<T>> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw failure(response, error);
  return settle<T>(response, data);
}

// Which paths the service has, from its own OpenAPI document (fetched once, exempt from the
// request limit): a part whose endpoint is missing is left out without a failed request. Read in
// a worker where the browser has them (the document is large to parse on the main thread).
let paths: Promise<Set<string> | null> | undefined;
function servicePaths(): Promise<Set<string> | null> {
  paths ??= pathsOffThread()
    .catch(() => readServicePaths())
    .then((list) => (list ? new Set(list.map(shape)) : null));
  return paths;
}

function pathsOffThread(): Promise<string[] | null> {
  return new Promise((resolve, reject) => {
    if (typeof Worker === 'undefined') return reject(new Error('no workers'));
    const worker = new Worker(new URL('./openapi-paths.worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (e: MessageEvent<string[] | null>) => {
      worker.terminate();
      resolve(e.data);
    });
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error('worker failed'));
    });
  });
}

/** A path template without its parameter names: `/stocks/{symbol}` and `/stocks/{sym}` agree. */
const shape = (template: string): string => template.replace(/\{[^}]*\}/g, '{}');

/** Throws NotAvailable when the service does not document `template` (e.g. `/market/breadth`). */
export async function requirePath(template: string): Promise<void> {
  const known = await servicePaths();
  if (known && !known.has(shape(template))) throw new NotAvailable(`no such endpoint: ${template}`);
}

/**
 * GET a JSON endpoint the typed client does not know yet. `template` is its OpenAPI path
 * (`/stocks/{symbol}/profile`); when the service does not have it, NotAvailable.
 */
export async function getJson<T>(
  template: string,
  path: string,
  urgency: 'default' | 'low' = 'default',
): Promise<Fetched<T>> {
  await requirePath(template);
  // Low: a section below the fold (RFC 9218 urgency 6 of 0–7). The service then fetches from the
  // exchange for it only while its budget has room, and otherwise says how long to wait (503).
  const headers: Record<string, string> = { accept: 'application/json' };
  if (urgency === 'low') headers.priority = 'u=6';
  const response = await fetch(path, { headers, priority: urgency === 'low' ? 'low' : 'auto' });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || body === null) throw failure(response, body);
  return settle<T>(response, body);
}

/** What the page says when a call fails: plain words, and how long to wait when the service said. */
/** What the service says when its own exchange-fetch budget, not the exchange, makes a request wait. */
export const SERVICE_BUDGET = /\bbudget\b|exchange fetches/i;

export function describeError(err: unknown, what: string): { message: string; detail: string } {
  if (err instanceof ServiceError) {
    switch (err.code) {
      case 'rate_limited':
        return {
          message: 'The service asked this page to wait a moment before asking again.',
          detail: 'It will try again by itself.',
        };
      case 'exchange_unavailable':
        if (SERVICE_BUDGET.test(err.message))
          return {
            message: `The service keeps this minute’s exchange fetches for the top of readers’ pages; ${what} follows when the minute turns.`,
            detail: 'It will try again by itself.',
          };
        return {
          message: 'The exchange’s data portal cannot be reached and the service has no copy of this yet.',
          detail: 'This usually passes within a minute or two.',
        };
      case 'upstream_data_error':
        return {
          message: 'The exchange’s portal sent a page the service could not read.',
          detail: 'The service keeps answering from its copy once it has one; try again later.',
        };
      case 'not_found':
        return { message: `${capitalise(what)} could not be found.`, detail: err.message };
      case 'bad_request':
        return {
          message: `The service could not answer this request for ${what}.`,
          detail: 'Check the address.',
        };
      default:
        return { message: `The service could not load ${what}.`, detail: 'Try again in a moment.' };
    }
  }
  if (err instanceof TypeError) {
    return {
      message: 'The service could not be reached.',
      detail: 'Check your connection; it may be restarting.',
    };
  }
  return {
    message: `Something went wrong while showing ${what}.`,
    detail: 'Reloading the page usually helps.',
  };
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
