// The shape of one operation's documented examples (openapi-examples.ts and its per-feature files).

export interface ErrorExample {
  code: string;
  message: string;
  summary?: string;
}

export interface OperationExamples {
  /** Example value per parameter name (path and query). */
  params: Record<string, string | number | boolean>;
  /** The example request: path and query string, as a caller would send it. */
  request: string;
  /** The same request through the typed client (packages/client, `api` is a client from createClient). */
  client: string;
  /** The example `data` of the 200 answer. */
  data: unknown;
  /** Extra `meta` fields of the 200 answer, for endpoints that add some. */
  meta?: Record<string, unknown>;
  /** More 200 examples (another switch of the same endpoint), by name. */
  alternatives?: Record<string, { request: string; data: unknown; meta?: Record<string, unknown> }>;
  /** The 200 answer's text for a text/event-stream operation (its `data` is then unused). */
  stream?: string;
  /** The rows of the CSV form when they are not `data` itself (an overview's main list). */
  csvRows?: unknown[];
  /** Error examples that differ from the defaults below, by status. */
  errors?: Partial<Record<number, ErrorExample[]>>;
}
