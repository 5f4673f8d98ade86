// What a CSV or Parquet answer's JSON meta would have said, in headers a client reads without a
// second request (pandas: `urllib.request.urlopen(url).headers`): `X-Warning` names the warnings,
// `X-Meta` carries the meta that belongs to the data (`as_of` and the answer's own fields).
import type { Answer } from '../../market/answer.ts';

// A header line stays well inside every client's limit (Node 16 KB for all headers, Python 64 KB a
// line); a meta larger than this is left to the JSON answer and the Parquet file's metadata.
const META_HEADER_MAX = 8192;

export interface MetaHeaders {
  /** `X-Warning`: comma-separated tokens, or null when the answer is whole. */
  warning: string | null;
  /** `X-Meta`: the data's meta as ASCII JSON, or null when too long for a header. */
  meta: string | null;
}

/** The meta a CSV or Parquet form keeps: `as_of` and the answer's own fields. */
export function dataMetaOf(answer: Answer<unknown>): Record<string, unknown> {
  return { as_of: answer.asOf, ...answer.meta };
}

export function metaHeadersOf(answer: Answer<unknown>): MetaHeaders {
  const warnings = warningsOf(answer.meta ?? {});
  // Header values are Latin-1 on the wire: anything beyond ASCII is escaped as JSON allows.
  const json = JSON.stringify(dataMetaOf(answer)).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return {
    warning: warnings.length > 0 ? warnings.join(', ') : null,
    meta: json.length <= META_HEADER_MAX ? json : null,
  };
}

/**
 * The warnings a meta carries, as tokens (docs/api.md lists them):
 * `adjustment-partial`, `adjustment-unavailable` (meta.adjustment.status), `incomplete` (a panel's
 * meta.incomplete), `not-found` (meta.not_found), `coverage-incomplete` (a ranking's or the
 * payouts' meta.coverage), `missing` (a composite's meta.missing).
 */
export function warningsOf(meta: Record<string, unknown>): string[] {
  const warnings: string[] = [];
  const adjustment = meta.adjustment as { status?: unknown } | undefined;
  if (adjustment?.status === 'partial' || adjustment?.status === 'unavailable') {
    warnings.push(`adjustment-${adjustment.status}`);
  }
  if (nonEmpty(meta.incomplete)) warnings.push('incomplete');
  if (nonEmpty(meta.not_found)) warnings.push('not-found');
  const coverage = meta.coverage as { missing?: unknown; complete?: unknown } | undefined;
  if (coverage !== undefined && (nonEmpty(coverage.missing) || coverage.complete === false)) {
    warnings.push('coverage-incomplete');
  }
  if (nonEmpty(meta.missing)) warnings.push('missing');
  return warnings;
}

function nonEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}
