// Builders for small portal-shaped pages. Tests write their own HTML in the portal's structure
// (upstream.md §3) instead of copying recorded pages.

export function th(text: string, attrs = ''): string {
  return `<th${attrs ? ' ' + attrs : ''}>${text}</th>`;
}

export function td(inner: string, attrs = ''): string {
  return `<td${attrs ? ' ' + attrs : ''}>${inner}</td>`;
}

/** A numeric cell the way the portal writes one: raw value in data-order, display text inside. */
export function num(order: string | number, text: string): string {
  return td(text, `class="right" data-order="${order}"`);
}

/** A change cell: arrow icon, then the display text. */
export function change(order: string | number, text: string): string {
  const dir = Number(order) > 0 ? 'pos' : Number(order) < 0 ? 'neg' : 'noc';
  const icon = dir === 'pos' ? 'icon-up-dir' : dir === 'neg' ? 'icon-down-dir' : '';
  return td(`<i class="${icon}"></i> ${text}`, `class="right change__text--${dir}" data-order="${order}"`);
}

/** A symbol cell: link with data-title and `<strong>`, optionally followed by a status tag. */
export function symbolCell(symbol: string, title: string, tag?: string, search = true): string {
  const badge = tag === undefined ? '' : `<div class="tag tag--skim tag--${tag.toLowerCase()}">${tag}</div>`;
  const attrs = search ? `data-search="${symbol}" data-order="${symbol}"` : `data-order="${symbol}"`;
  return td(
    `<a class="tbl__symbol" href="/company/${symbol}" data-title="${title}"><strong>${symbol}</strong></a>${badge}`,
    attrs,
  );
}

export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  attrs = 'class="tbl"',
): string {
  const head = `<thead class="tbl__head"><tr>${headers.map((h) => (h.startsWith('<') ? h : th(h))).join('')}</tr></thead>`;
  const body = `<tbody class="tbl__body">${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody>`;
  return `<table ${attrs}>${head}${body}</table>`;
}

export function page(body: string): string {
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>PSX</title>' +
    '<script>window.__ps = {"lc":"en","tz":"Asia/Karachi","_k":"AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde","rv":"1"};</script>' +
    '<style>td > b { color: red; }</style></head><body><div class="page">' +
    body +
    '</div><script>var x = "<table><tr><td>not a table</td></tr></table>";</script></body></html>'
  );
}
