// The request token: every portal HTML page carries
// `<script>window.__ps = {"lc":"en","tz":"Asia/Karachi","_k":"<token>","rv":"1"};</script>`.

const TOKEN = /^[A-Za-z0-9_-]{16,}$/;
const TOKEN_FIELD = /["']?_k["']?\s*:\s*["']([^"']*)["']/;
/** How far past `window.__ps` the object may reach; it is about 80 characters today. */
const SEARCH_WINDOW = 2000;

/**
 * The `_k` token of `window.__ps`, or null when absent or malformed: the client then sends its
 * requests without one (fails open) and lets the portal's answer decide.
 */
export function parseToken(html: string): string | null {
  if (typeof html !== 'string') return null;
  const at = html.indexOf('window.__ps');
  if (at < 0) return null;
  let end = html.indexOf('</script', at);
  if (end < 0 || end - at > SEARCH_WINDOW) end = at + SEARCH_WINDOW;
  const match = TOKEN_FIELD.exec(html.slice(at, end));
  const token = match?.[1];
  return token !== undefined && TOKEN.test(token) ? token : null;
}
