// The shape of one operation's documented examples: what openapi-examples.ts and its per-feature
// files write by hand (the request, its parameters, the typed-client call, the requests that get
// each documented error), and what `npm run gen:examples` writes from the service's own answers
// (openapi-examples.generated.ts).

/** One error as an example shows it: the envelope's code and message, and the example's title. */
export interface ErrorExample {
  code: string;
  message: string;
  summary?: string;
}

/**
 * The state of the service or the exchange an error request meets, which the generator brings about
 * (scripts/gen-examples.ts): the portal refusing connections or serving pages that cannot be read,
 * this client over its request limit or its concurrent streams, headers beyond the server's limit,
 * a caller proxy sent to a server that does not allow one, or one nothing listens on.
 */
export type ErrorState =
  | 'portal-down'
  | 'portal-garbage'
  | 'rate-limited'
  | 'streams-full'
  | 'headers-too-large'
  | 'proxy-not-allowed'
  | 'proxy-refused';

/** A documented error as the request that gets it: the generator sends it and keeps the answer. */
export interface ErrorRequest {
  /** Path and query string, as a caller would send it. */
  request: string;
  /** The example's title; default `code: message`. */
  summary?: string;
  /** The state the request meets; default a healthy service over a healthy portal. */
  state?: ErrorState;
  /** With a portal state: only the portal paths starting with this fail (default every path). */
  portalPath?: string;
}

/**
 * A documented error that no request can bring about from outside (the service's own failure, its
 * shutdown, an unreachable archive store): its message is the constant the service raises, imported
 * from where it is raised, never retyped.
 */
export interface RaisedError {
  raised: ErrorExample;
}

export type ErrorSource = ErrorRequest | RaisedError;

/** The generated error examples by operation path (`*`: the defaults), then by status. */
export type GeneratedErrors = Record<string, Record<string, ErrorExample[]>>;

/** One answer of the service as an example shows it: `data` with its lists shortened, and `meta`. */
export interface GeneratedAnswer {
  data: unknown;
  meta: Record<string, unknown>;
}

/** The generated answers by operation path: the main request's and each named alternative's. */
export type GeneratedExamples = Record<
  string,
  { ok: GeneratedAnswer; alternatives?: Record<string, GeneratedAnswer> }
>;

/** Another 200 example of the same endpoint: a request the generator sends, or one derived from the main answer. */
export type AlternativeExample =
  | { request: string }
  /** An answer the generator cannot ask for in one request (a refusal mid-way): built from the main one. */
  | { request: string; derive: (ok: GeneratedAnswer) => GeneratedAnswer };

export interface OperationExamples {
  /** Example value per parameter name (path and query). */
  params: Record<string, string | number | boolean>;
  /** The example request: path and query string, as a caller would send it; its answer is the example. */
  request: string;
  /** The same request through the typed client (packages/client, `api` is a client from createClient). */
  client: string;
  /**
   * Requests the generator sends first, so the answer is a warmed service's (a quote whose company
   * page is already in memory shows its extras rather than starting a background fetch).
   */
  warm?: string[];
  /**
   * Fields of `data` that measure the generating machine's own speed in wall-clock time (a backfill's
   * rate), shown with these typical values so the example does not change from run to run.
   */
  measured?: Record<string, unknown>;
  /** How many items of the answer's list the example keeps (lists inside it keep two); default 2. */
  rows?: number;
  /** More 200 examples (another switch of the same endpoint), by name. */
  alternatives?: Record<string, AlternativeExample>;
  /** The 200 answer's text for a text/event-stream operation (nothing is generated for it). */
  stream?: string;
  /** The rows of the CSV form when they are not `data` itself (an overview's main list). */
  csvRows?: (data: unknown) => unknown[];
  /** The errors this operation documents beyond the defaults, by status. */
  errors?: Partial<Record<number, ErrorSource[]>>;
}
