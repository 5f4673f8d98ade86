// Conditional GETs (RFC 9110 §13.1–13.2): If-None-Match is compared with the ETag; only when it is
// absent does If-Modified-Since decide, against Last-Modified (the portal fetch time, which HTTP
// dates carry to the second). An unparseable date is ignored, as the RFC says.

export interface Validators {
  etag: string;
  /** Epoch ms the representation last changed (what Last-Modified says). */
  lastModifiedMs: number;
}

export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  v: Validators,
): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) return etagMatches(inm, v.etag);
  const ims = headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  if (Number.isNaN(since)) return false;
  return Math.floor(v.lastModifiedMs / 1000) * 1000 <= since;
}

/** Weak comparison (§8.8.3.2), as If-None-Match asks. */
function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}
