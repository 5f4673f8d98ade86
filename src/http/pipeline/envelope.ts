// The success envelope, `{"data":…,"meta":{timestamp, cached, count?}}` (spec: Response envelope),
// built as bytes: the data part once per data version (view-cache.ts), the meta tail per second.

/**
 * The part after `{"data":…`: `,"meta":{…}}`, with `count` on lists only (spec: Response envelope)
 * and then the answer's own meta fields (`extra`, already serialised with a leading comma).
 */
export function metaTail(cached: boolean, count: number, nowMs: number, extra = ''): string {
  const countPart = count >= 0 ? `,"count":${count}` : '';
  return `,"meta":{"timestamp":"${timestampOf(nowMs)}","cached":${cached}${countPart}${extra}}}`;
}

/** `{"data":…,"meta":{…}}` for answers built outside the responder (health). */
export function envelope(dataJson: string, cached: boolean, count: number, nowMs: number): string {
  return `{"data":${dataJson}${metaTail(cached, count, nowMs)}`;
}

/**
 * ISO 8601 with an explicit UTC offset, as the spec asks (`+00:00`, not `Z`), to the second, like
 * HTTP's Date: every answer generated within one second shares its meta, so a large answer's
 * bytes are assembled once a second instead of once a response (bench/README.md).
 */
export function timestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

let stampedAt = -1;
let stamp = '';

/** `timestamp` of the second `nowMs` falls in, formatted once a second. */
function timestampOf(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== stampedAt) {
    stampedAt = second;
    stamp = timestamp(new Date(second * 1000));
  }
  return stamp;
}
