// What a tool is (one entry of the table in tools.ts) and the pieces every entry is built from:
// the structured result's shapes (one object, or a page of a list), paging, and the compact text
// a model reads. A tool's structured result mirrors the REST answer: `data` is the endpoint's
// `data` (a page of it for lists) and `as_of` its `meta.as_of`.
import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import type { Answer } from '../market/answer.ts';
import type { RequestContext } from '../market/context.ts';
import type { Datasets } from '../market/datasets.ts';
import type { FeedDatasets } from '../market/feeds/feed-datasets.ts';
import type { MemberSeriesSource } from '../market/analytics/member-series.ts';
import type { ArchiveDeps } from '../http/routes/archive.ts';
import { analyticsSchemas } from '../market/models/analytics.ts';
import { archiveModelSchemas } from '../market/models/archive.ts';
import { feedSchemas } from '../market/models/feeds.ts';
import { liveSchemas } from '../market/models/intraday.ts';
import { overviewSchemas } from '../market/models/overview.ts';
import { companySchemas, namedSchemas } from '../market/models/resources.ts';
import { memoByDataset } from '../cache/memo.ts';

/** What a tool's handler may use: the same market services and request context the routes use. */
export interface ToolContext {
  datasets: Datasets;
  ctx: RequestContext;
  /** The market clock as configured (get_market_status). */
  marketClock: { followMarketClock: boolean; now: () => number };
  /** The market-wide feeds' pages (the feed routes' datasets). */
  feeds: FeedDatasets;
  /** Members' daily series for the rankings, as the analytics routes read them. */
  memberSeries: MemberSeriesSource;
  /** The market's archive, when the service has one (the archive routes' deps). */
  archive?: ArchiveDeps;
  /** The tools offered: every tool (default), or the core set for hosts that take few (MCP_TOOLS). */
  toolSet?: ToolSet;
}

/** MCP_TOOLS: `all` (default) or `core` (CORE_TOOLS in tools.ts). */
export type ToolSet = 'all' | 'core';

/** A tool's structured result: always an object (MCP's structuredContent), always with `as_of`. */
export type Structured = { as_of: string | null } & Record<string, unknown>;

export interface Tool<I extends TObject = TObject> {
  name: string;
  title: string;
  /** What an agent chooses the tool by: what it answers, from what, and what it costs. */
  description: string;
  /** Arguments: a closed object (an unknown argument is an error naming it), with bounds. */
  input: I;
  /** The structured result's schema: what `run` returns, checked by clients. */
  output: TSchema;
  run(args: Static<I>, t: ToolContext): Promise<Structured>;
  /** The result as a short text for a model's context: a compact table, not a JSON dump. */
  render(result: Structured): string;
  /** Offered only when the service has this part (the archive tools need the archive). */
  needs?: 'archive';
}

/** Declares one entry of the tool table, with its argument type inferred from its input schema. */
export function tool<I extends TObject>(def: Tool<I>): Tool {
  return def as unknown as Tool;
}

/** A closed argument object. */
export function args<P extends TProperties>(properties: P): TObject<P> {
  return Type.Object(properties, { additionalProperties: false });
}

const AsOf = Type.Union([Type.String(), Type.Null()], {
  description:
    "when the data is from, ISO 8601 with the market's offset (+05:00): the page's own time where it prints one, else when the portal was fetched; null only for answers not built from portal data",
});

/** Every named model by its `$id`, to inline the references between them. */
const MODELS: ReadonlyMap<string, TSchema> = new Map(
  [
    ...namedSchemas,
    ...companySchemas,
    ...liveSchemas,
    ...overviewSchemas,
    ...feedSchemas,
    ...archiveModelSchemas,
    ...analyticsSchemas,
  ].map((s) => [String((s as { $id?: string }).$id), s as TSchema]),
);

/**
 * A model's schema as a self-contained JSON Schema: the `$id`s the OpenAPI document names its
 * components by are dropped and a reference to another model (`{$ref: 'Quote#'}`) is replaced by
 * that model, so one client can compile every tool's output schema side by side.
 */
export function inline(schema: TSchema): TSchema {
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const model = MODELS.get(ref.replace(/#$/, ''));
      if (model === undefined) throw new Error(`no model ${ref} to inline`);
      return resolve(model);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== '$id') out[k] = resolve(v);
    return out;
  };
  return resolve(JSON.parse(JSON.stringify(schema))) as TSchema;
}

/** One object: `{as_of, data}`, plus the answer's extra meta fields. */
export function single(model: TSchema, extra: TProperties = {}): TSchema {
  return Type.Object({ as_of: AsOf, data: inline(model), ...extra });
}

const PagingFields = {
  total: Type.Integer({ description: 'items in the whole list (every page of it)' }),
  offset: Type.Integer({ description: 'index of the first item of this page in the whole list' }),
  count: Type.Integer({ description: 'items in this page' }),
  next_offset: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the offset of the next page, or null when this page is the last',
  }),
};

/** A page of a list: `{as_of, total, offset, count, next_offset, data}`. */
export function list(item: TSchema, extra: TProperties = {}): TSchema {
  return Type.Object({ as_of: AsOf, ...PagingFields, data: Type.Array(inline(item)), ...extra });
}

/**
 * A page of a daily series, which an agent reads from its recent end: a list page plus
 * `prev_offset` (the page before this one, toward the start of the list) and the dates the
 * page covers.
 */
export function series(item: TSchema, extra: TProperties = {}): TSchema {
  return Type.Object({
    as_of: AsOf,
    ...PagingFields,
    prev_offset: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'where the page before this one (toward the start of the list) begins, or null on the first; it ends where this page begins, so call with limit = offset − prev_offset to get exactly it',
    }),
    first_date: Type.Union([Type.String(), Type.Null()], { description: "this page's first row's date" }),
    last_date: Type.Union([Type.String(), Type.Null()], { description: "this page's last row's date" }),
    data: Type.Array(inline(item)),
    ...extra,
  });
}

/** Paging arguments: `limit` items from `offset`. */
export function paging(defaultLimit: number, maxLimit: number) {
  return {
    offset: Type.Optional(
      Type.Integer({ minimum: 0, description: 'skip this many items (from next_offset); default 0' }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxLimit,
        description: `items per page, at most ${maxLimit}; default ${defaultLimit}`,
      }),
    ),
  };
}

// A cached answer is the same object until its data changes (the market services memoise them):
// so is its structured result, and what is made from it (its text, its JSON) is made once.
/** The structured result of a single-object answer. */
export const one = memoByDataset((answer: Answer<unknown>): Structured => ({
  as_of: answer.asOf,
  data: answer.data,
  ...(answer.meta ?? {}),
}));

/** The structured result of a page of a list answer. */
export function page(
  answer: Answer<readonly unknown[]>,
  offset = 0,
  limit: number = answer.data.length,
): Structured {
  const all = answer.data;
  const data = all.slice(offset, offset + limit);
  const end = offset + data.length;
  return {
    as_of: answer.asOf,
    total: all.length,
    offset,
    count: data.length,
    next_offset: end < all.length ? end : null,
    data,
    ...(answer.meta ?? {}),
  };
}

/**
 * A page of a daily series (the whole range of the answer, in the order asked): from `offset`
 * when given, else the newest `limit` rows (the end of an oldest-first list, the start of a
 * newest-first one).
 */
export function seriesPage(
  answer: Answer<readonly { date: string }[]>,
  limit: number,
  newestFirst: boolean,
  offset?: number,
): Structured {
  const total = answer.data.length;
  const from = offset ?? (newestFirst ? 0 : Math.max(0, total - limit));
  const result = page(answer, from, limit);
  const data = result.data as { date: string }[];
  return {
    ...result,
    prev_offset: from > 0 ? Math.max(0, from - limit) : null,
    first_date: data[0]?.date ?? null,
    last_date: data.at(-1)?.date ?? null,
  };
}

/** At most this many rows of a list go into a text rendering; the structured result has the page. */
export const TEXT_ROWS = 40;

/** A cell: null as an em dash, numbers as the service gives them. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.join(' ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/\|/g, '/').replace(/\s+/g, ' ');
}

/** A Markdown table of `rows` by `columns` (at most TEXT_ROWS rows; the rest are counted). */
export function table(rows: readonly unknown[], columns: readonly string[]): string {
  if (rows.length === 0) return '(no rows)';
  const shown = rows.slice(0, TEXT_ROWS) as Record<string, unknown>[];
  const lines = [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
  for (const row of shown) lines.push(`| ${columns.map((c) => cell(row[c])).join(' | ')} |`);
  if (rows.length > shown.length)
    lines.push(`… ${rows.length - shown.length} more rows in the structured result`);
  return lines.join('\n');
}

/** `field: value` lines of one object. */
export function fields(row: object, only?: readonly string[]): string {
  const entries = Object.entries(row).filter(([k]) => only === undefined || only.includes(k));
  return entries.map(([k, v]) => `${k}: ${cell(v)}`).join('\n');
}

interface PageFields {
  total: number;
  offset: number;
  count: number;
  next_offset: number | null;
  prev_offset?: number | null;
  first_date?: string | null;
  last_date?: string | null;
}

/** The heading and paging lines of a list page: what it is, the total, and how to get the rest. */
export function pageText(title: string, result: Structured, columns: readonly string[]): string {
  const { total, offset, count, next_offset: next } = result as unknown as PageFields;
  const range = count === 0 ? 'none' : `${offset + 1}–${offset + count}`;
  const head = `${title}: ${range} of ${total} (as of ${result.as_of ?? 'n/a'})`;
  const more = next === null ? '' : `\nMore: call again with offset=${next}.`;
  return `${head}\n${table(result.data as unknown[], columns)}${more}`;
}

/**
 * A page of a daily series as text: the rows it covers and their dates, then its newest rows
 * (a model reads the recent end; an oldest-first page shows its last TEXT_ROWS rows), and the
 * offsets of the older and newer pages.
 */
export function seriesText(
  title: string,
  result: Structured,
  columns: readonly string[],
  newestFirst: boolean,
): string {
  const r = result as unknown as PageFields;
  const rows = result.data as unknown[];
  const head =
    r.count === 0
      ? `${title}: no rows of ${r.total} (as of ${result.as_of ?? 'n/a'})`
      : `${title}: rows ${r.offset + 1}–${r.offset + r.count} of ${r.total}, ${r.first_date} to ${r.last_date}, ${newestFirst ? 'newest' : 'oldest'} first (as of ${result.as_of ?? 'n/a'})`;
  let body: string;
  if (newestFirst || rows.length <= TEXT_ROWS) body = table(rows, columns);
  else {
    const hidden = rows.length - TEXT_ROWS;
    body = `(this page's ${hidden} oldest rows are in the structured result; its newest ${TEXT_ROWS} follow)\n${table(rows.slice(hidden), columns)}`;
  }
  // Older rows are toward the start of an oldest-first list, toward the end of a newest-first one.
  const prev = r.prev_offset ?? null;
  // The page before ends where this one begins: a short first page says its limit.
  const before =
    prev === null ? null : `offset=${prev}${r.offset - prev !== r.count ? ` limit=${r.offset - prev}` : ''}`;
  const after = r.next_offset === null ? null : `offset=${r.next_offset}`;
  const older = newestFirst ? after : before;
  const newer = newestFirst ? before : after;
  const more = [
    older === null ? '' : `\nOlder rows: call again with ${older}.`,
    newer === null ? '' : `\nNewer rows: call again with ${newer}.`,
  ].join('');
  return `${head}\n${body}${more}`;
}
