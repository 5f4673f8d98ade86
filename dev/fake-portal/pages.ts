// Renderers: one function per portal page, producing markup in the recorded structure.
// Full pages carry the request token; the XHR fragments (market watch, index
// constituents, sector summary, historical, reports) do not, as on the real portal.
import type { Dataset, Instrument } from './dataset.ts';
import { STALE_INDEX } from './dataset.ts';

// ---------------------------------------------------------------------------------------------
// Formatting, as the portal's templates print numbers

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function withCommas(digits: string): string {
  if (digits.length <= 3) return digits;
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/** `1,679.98`; the sign only when the rounded value is not zero. */
export function formatFixed(n: number, decimals: number): string {
  const a = Math.abs(n);
  // Fast paths for the common cases (toFixed dominates rendering 1,000 histories otherwise).
  if (decimals === 2 && a < 1e13) {
    const cents = Math.round(a * 100);
    if (cents === 0) return '0.00';
    const frac = cents % 100;
    const body = `${withCommas(String((cents - frac) / 100))}.${frac < 10 ? '0' : ''}${frac}`;
    return n < 0 ? `-${body}` : body;
  }
  if (decimals === 0 && a < 1e15) {
    const whole = Math.round(a);
    return n < 0 && whole !== 0 ? `-${withCommas(String(whole))}` : withCommas(String(whole));
  }
  const s = a.toFixed(decimals);
  const dot = s.indexOf('.');
  const body = dot < 0 ? withCommas(s) : withCommas(s.slice(0, dot)) + s.slice(dot);
  return n < 0 && Number(s) !== 0 ? `-${body}` : body;
}

/** The screener's abbreviated sizes: `892.2M`, `15.4B`, `499.1K`, `0.0`. */
export function formatCompact(n: number): string {
  const a = Math.abs(n);
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, unit] of units) if (a >= size) return `${formatFixed(n / size, 1)}${unit}`;
  return formatFixed(n, 1);
}

/** `Jan 3, 2025` for `2025-01-03`. */
export function formatDateText(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** The history date cell's data-order: epoch seconds of 16:00 Asia/Karachi (UTC+5) that day. */
export function dateOrder(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d, 11) / 1000;
}

type Dir = 'pos' | 'neg' | 'noc';

function dirOf(n: number): Dir {
  return n > 0 ? 'pos' : n < 0 ? 'neg' : 'noc';
}

const ICON: Record<Dir, string> = { pos: 'icon-up-dir', neg: 'icon-down-dir', noc: '' };

/** A change cell: direction class, raw data-order, arrow icon, then the rounded text. */
function changeCell(value: number, suffix: '' | '%', extraAttrs = ''): string {
  const dir = dirOf(value);
  return (
    `<td class="right change__text--${dir}" data-order="${value}"${extraAttrs}>` +
    `<i class="${ICON[dir]}"></i> ${formatFixed(value, 2)}${suffix}</td>`
  );
}

function numCell(value: number, text: string): string {
  return `<td class="right" data-order="${value}">${text}</td>`;
}

// Status tags follow the symbol link; NC and DEF share the `tag--def` style on the portal.
const TAG_CLASS: Record<string, string> = { XD: 'xd', XB: 'xb', XR: 'xr', NC: 'def', DEF: 'def', WU: 'def' };

function tagsHtml(inst: Instrument | undefined): string {
  if (!inst) return '';
  return inst.tags.map((t) => `<div class="tag tag--skim tag--${TAG_CLASS[t] ?? 'def'}">${t}</div>`).join('');
}

function symbolLink(symbol: string, name: string, targetBlank: boolean): string {
  const target = targetBlank ? ' target="_blank"' : '';
  return (
    `<a class="tbl__symbol" href="/company/${encodeURIComponent(symbol)}" data-title="${escapeHtml(name)}"${target}>` +
    `<strong>${escapeHtml(symbol)}</strong></a>`
  );
}

// ---------------------------------------------------------------------------------------------
// The page shell of full (non-XHR) pages

export function tokenScript(token: string): string {
  return `<script>window.__ps = {"lc":"en","tz":"Asia/Karachi","_k":"${token}","rv":"1"};</script>`;
}

const NAV_ITEMS: [string, string][] = [
  ['/', "Today's Summary"],
  ['/indices', 'Market Indices'],
  ['/sector-summary', 'Sector Summary'],
  ['/screener', 'Stock Screener'],
  ['/historical', 'Historical Data'],
];

function shell(ds: Dataset, token: string, title: string, path: string, content: string): string {
  const nav = NAV_ITEMS.map(
    ([href, label]) => `<a class="top__nav__subMenuItem" href="${href}">${label}</a>`,
  ).join('');
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">' +
    `<meta property="og:url" content="https://dps.psx.com.pk${escapeHtml(path)}">` +
    `<title>${escapeHtml(title)}</title>` +
    '<link rel="stylesheet" href="/static/styles.css?v=1.72">' +
    tokenScript(token) +
    '<script src="/static/script.js?v=1.72"></script></head><body>' +
    '<div class="header"><div class="topbar"><div class="topbar__container">' +
    '<div class="header__logo"><img src="/static/images/logo-white-bg.png"></div>' +
    `<div class="topbar__menus"><div class="topbar__menu"><div><div class="topbar__status" style="border:none;">` +
    `<div class="topbar__status__label">${ds.asOfLabel}</div></div></div></div></div></div></div>` +
    '<div class="top__nav"><div class="top__nav__container"><div class="top__nav__menu">' +
    `<div class="top__nav__menuItem"> <span class="item__name">Market<i class="icon-down-dir"></i></span>` +
    `<div class="top__nav__subMenu"><div class="top__nav__subMenuList">${nav}</div></div></div>` +
    '</div></div></div></div>' +
    `<div class="content">${content}</div>` +
    '<div class="footer"><div class="footer__bottom"><div class="footer__bottom__item footer__site"> ' +
    'https://www.psx.com.pk</div></div></div></body></html>'
  );
}

function pageHeader(title: string): string {
  return `<div class="pageHeader__wrapper"><div class="pageHeader"><div class="pageHeader__title">${title}</div></div></div>`;
}

/** The index carousel every full page carries (`div.topIndices__item`). */
export function renderCarousel(ds: Dataset): string {
  const slides = ds.indexLevels.rows.map((row) => {
    const change = row.change ?? 0;
    const dir = dirOf(change);
    const stale =
      row.staleSince !== null
        ? `<div class="topIndices__item__date">${STALE_INDEX.label.slice(0, 10)}</div>`
        : '';
    return (
      '<div class="glide__slide"><div class="topIndices__item"><div>' +
      `<div class="topIndices__item__name">${row.index}</div>` +
      `<div class="topIndices__item__val">${formatFixed(row.current ?? 0, 2)}</div>${stale}</div>` +
      `<div class="change__text--${dir}"><div class="topIndices__item__change"><i class="${ICON[dir]}"></i> ` +
      `${formatFixed(change, 2)}</div><div class="topIndices__item__changep">(${formatFixed(row.changePct ?? 0, 2)}%)` +
      '</div></div></div></div>'
    );
  });
  return (
    '<div class="section topIndices"><div class="glide" id="indicesSlider">' +
    `<div class="glide__track" data-glide-el="track"><div class="glide__slides">${slides.join('')}</div></div>` +
    '<div class="glide__arrows" data-glide-el="controls">' +
    '<button class="glide__arrow glide__arrow--left" data-glide-dir="&lt;"><i class="icon-left-open"></i></button>' +
    '<button class="glide__arrow glide__arrow--right" data-glide-dir="&gt;"><i class="icon-right-open"></i></button>' +
    '</div></div></div>'
  );
}

// ---------------------------------------------------------------------------------------------
// Pages

/** `GET /`: the page the token is taken from. */
export function renderHomePage(ds: Dataset, token: string): string {
  const kse = ds.indexLevels.rows[0];
  const summary = kse
    ? `<div class="section section--padded"><h1 class="section__title">Today's Summary</h1>` +
      `<div class="stats"><div class="stats_item"><div class="stats_label">KSE100</div>` +
      `<div class="stats_value">${formatFixed(kse.current ?? 0, 2)}</div></div>` +
      `<div class="stats_item"><div class="stats_label">Symbols</div>` +
      `<div class="stats_value">${ds.marketWatch.length}</div></div></div></div>`
    : '';
  return shell(
    ds,
    token,
    'Pakistan Stock Exchange (PSX) - Data Portal',
    '/',
    renderCarousel(ds) + pageHeader("Today's Summary") + summary,
  );
}

/** `GET /symbols`: JSON; debt rows have no isGEM field, as recorded. */
export function renderSymbolsJson(ds: Dataset): string {
  const items = ds.symbols.map((s) =>
    s.isDebt
      ? { symbol: s.symbol, name: s.name, sectorName: s.sectorName, isETF: s.isETF, isDebt: s.isDebt }
      : s,
  );
  return JSON.stringify(items, null, 1);
}

const SCREENER_HEAD: [string, string, boolean][] = [
  ['symbol', 'SYMBOL', false],
  ['sector', 'SECTOR', false],
  ['listed', 'LISTED IN', false],
  ['marketCap', 'MARKET CAP.', true],
  ['close', 'PRICE', true],
  ['percentChange', 'CHANGE (%)', true],
  ['changeYear', '1-YEAR CH. (%) *', true],
  ['peRatio', 'PE RATIO (TTM)', true],
  ['dividendYield', 'DIVIDEND YIELD (%)', true],
  ['freeFloat', 'FREE FLOAT', true],
  ['volume30Avg', '30D VOLUME AVG.', true],
];

function screenerCell(value: number, text: string): string {
  return `<td class="right" data-order="${value}" data-filter="${value}">${text}</td>`;
}

function screenerChange(value: number): string {
  return changeCell(value, '%', ` data-filter="${value}"`);
}

/** `GET /screener`: a full page with `table#screenerTable`. */
export function renderScreenerPage(ds: Dataset, token: string): string {
  const head = SCREENER_HEAD.map(
    ([name, label, right]) => `<th${right ? ' class="right"' : ''} data-name="${name}">${label}</th>`,
  ).join('');
  const rows: string[] = [];
  for (const r of ds.screener) {
    const inst = ds.instrument(r.symbol);
    rows.push(
      `<tr><td data-order="${escapeHtml(r.symbol)}">${symbolLink(r.symbol, r.name ?? '', false)}${tagsHtml(inst)}</td>` +
        `<td>${r.sectorCode ?? ''}</td><td>${r.listedIn.join(',')}</td>` +
        screenerCell(r.marketCap ?? 0, formatCompact(r.marketCap ?? 0)) +
        screenerCell(r.price ?? 0, formatFixed(r.price ?? 0, 2)) +
        screenerChange(r.changePct ?? 0) +
        screenerChange(r.change1yPct ?? 0) +
        screenerCell(r.peRatio ?? 0, formatFixed(r.peRatio ?? 0, 2)) +
        screenerCell(r.dividendYield ?? 0, formatFixed(r.dividendYield ?? 0, 2)) +
        screenerCell(r.freeFloat ?? 0, formatCompact(r.freeFloat ?? 0)) +
        screenerCell(r.volumeAvg30d ?? 0, formatFixed(r.volumeAvg30d ?? 0, 0)) +
        '</tr>',
    );
  }
  const content =
    renderCarousel(ds) +
    pageHeader('Stock Screener') +
    '<div class="section"><div class="tbl__wrapper">' +
    '<table class="tbl" id="screenerTable" data-page-length="25" style="min-width: 900px;">' +
    `<thead class="tbl__head"><tr>${head}</tr></thead><tbody class="tbl__body">${rows.join('')}</tbody></table></div>` +
    '<div class="screenerNote"><div><div style="margin:1em;">* Returns not adjusted for payouts</div></div></div></div>';
  return shell(ds, token, 'Stock Screener - Pakistan Stock Exchange (PSX)', '/screener', content);
}

/** `GET /market-watch`: the bare table the page loads by XHR. */
export function renderMarketWatch(ds: Dataset): string {
  const head =
    '<th data-name="symbol">SYMBOL</th><th data-name="sector">SECTOR</th><th data-name="listed">LISTED IN</th>' +
    '<th class="right" data-name="ldcp">LDCP</th><th class="right" data-name="open">OPEN</th>' +
    '<th class="right" data-name="high">HIGH</th><th class="right" data-name="low">LOW</th>' +
    '<th class="right" data-name="close">CURRENT</th><th class="right" data-name="change">CHANGE</th>' +
    '<th class="right" data-name="percentChange">CHANGE (%)</th><th class="right" data-name="volume">VOLUME</th>';
  const rows: string[] = [];
  for (const r of ds.marketWatch) {
    const sym = escapeHtml(r.symbol);
    rows.push(
      `<tr><td data-search="${sym}" data-order="${sym}">${symbolLink(r.symbol, r.name ?? '', false)}` +
        `${tagsHtml(ds.instrument(r.symbol))}</td><td>${r.sectorCode ?? ''}</td><td>${r.listedIn.join(',')}</td>` +
        numCell(r.ldcp ?? 0, formatFixed(r.ldcp ?? 0, 2)) +
        numCell(r.open ?? 0, formatFixed(r.open ?? 0, 2)) +
        numCell(r.high ?? 0, formatFixed(r.high ?? 0, 2)) +
        numCell(r.low ?? 0, formatFixed(r.low ?? 0, 2)) +
        numCell(r.current ?? 0, formatFixed(r.current ?? 0, 2)) +
        changeCell(r.change ?? 0, '') +
        changeCell(r.changePct ?? 0, '%') +
        numCell(r.volume ?? 0, formatFixed(r.volume ?? 0, 0)) +
        '</tr>',
    );
  }
  return (
    `<table class="tbl" data-page-length="25"><thead class="tbl__head"><tr>${head}</tr></thead>` +
    `<tbody class="tbl__body">${rows.join('')}</tbody></table>`
  );
}

/** `GET /indices/{NAME}`: `<h2>` then the constituents table; null for an unknown index. */
export function renderIndexConstituents(ds: Dataset, code: string): string | null {
  const page = ds.indexConstituents(code);
  if (!page) return null;
  const sizeHeader = page.sizeColumn === 'shares' ? 'SHARES (M)' : 'FREEFLOAT (M)';
  // Header texts keep the portal's trailing space in `IDX POINT `.
  const head =
    '<th>SYMBOL</th><th style="width:180px;">NAME</th><th class="right">LDCP</th><th class="right">CURRENT</th>' +
    '<th class="right">CHANGE</th><th class="right">CHANGE (%)</th><th class="right">IDX WTG (%)</th>' +
    `<th class="right">IDX POINT </th><th class="right">VOLUME</th><th class="right">${sizeHeader}</th>` +
    '<th class="right">MARKET CAP (M)</th>';
  const rows: string[] = [];
  for (const r of page.rows) {
    const size = (page.sizeColumn === 'shares' ? r.shares : r.freeFloat) ?? 0;
    const cap = r.marketCap ?? 0;
    rows.push(
      `<tr><td data-order="${escapeHtml(r.symbol)}">${symbolLink(r.symbol, r.name ?? '', true)}` +
        `${tagsHtml(ds.instrument(r.symbol))}</td><td>${escapeHtml(r.name ?? '')}</td>` +
        numCell(r.ldcp ?? 0, formatFixed(r.ldcp ?? 0, 2)) +
        numCell(r.current ?? 0, formatFixed(r.current ?? 0, 2)) +
        changeCell(r.change ?? 0, '') +
        changeCell(r.changePct ?? 0, '%') +
        // The weight alone has no data-order: only its rounded text.
        `<td class="right">${formatFixed(r.idxWeight ?? 0, 2)}%</td>` +
        `<td class="right change__text--${dirOf(r.idxPoint ?? 0)}" data-order="${r.idxPoint ?? 0}">` +
        `${formatFixed(r.idxPoint ?? 0, 2)}</td>` +
        numCell(r.volume ?? 0, formatFixed(r.volume ?? 0, 0)) +
        numCell(size, formatFixed(size / 1e6, 0)) +
        numCell(cap, formatFixed(cap / 1e6, 0)) +
        '</tr>',
    );
  }
  return (
    `<h2 style="margin-top:0;">${escapeHtml(page.title ?? '')}</h2><div class="tbl__wrapper">` +
    `<table class="tbl" data-page-length="25"><thead class="tbl__head"><tr>${head}</tr></thead>` +
    `<tbody class="tbl__body">${rows.join('')}</tbody></table></div>`
  );
}

/** `GET /indices`: full page; the levels table sits in `div#indicesTable` after the `As of` line. */
export function renderIndicesPage(ds: Dataset, token: string): string {
  const rows: string[] = [];
  for (const r of ds.indexLevels.rows) {
    const change = r.change ?? 0;
    const changePct = r.changePct ?? 0;
    const tail =
      numCell(r.current ?? 0, formatFixed(r.current ?? 0, 2)) +
      changeCell(change, '') +
      changeCell(changePct, '%');
    if (r.staleSince !== null) {
      // A stale index: no link, a timestamp, and N/A high/low whose data-order is 0.
      rows.push(
        `<tr><td><b style="color:#009d49;">${r.index}</b><span style="color:#888;"> (${STALE_INDEX.label})</span></td>` +
          '<td class="right" data-order="0"><span>N/A</span></td><td class="right" data-order="0"><span>N/A</span></td>' +
          `${tail}</tr>`,
      );
      continue;
    }
    rows.push(
      `<tr><td><a class="link" href="javascript:;" data-code="${r.index}"><b>${r.index}</b></a></td>` +
        numCell(r.high ?? 0, formatFixed(r.high ?? 0, 2)) +
        numCell(r.low ?? 0, formatFixed(r.low ?? 0, 2)) +
        `${tail}</tr>`,
    );
  }
  const content =
    renderCarousel(ds) +
    pageHeader('Indices') +
    '<div class="section section--padded" id="indicesTable">' +
    `<div style="text-align: right; padding-bottom: 0.4em;">As of ${ds.asOfLabel}</div>` +
    '<table class="tbl"><thead class="tbl__head"><tr><th>Index</th><th class="right">High</th>' +
    '<th class="right">Low</th><th class="right">Current</th><th class="right">Change</th>' +
    `<th class="right">% Change</th></tr></thead><tbody class="tbl__body">${rows.join('')}</tbody></table>` +
    '<table class="tbl" style="margin-top:1.5em"><thead class="tbl__head"><tr>' +
    '<th><a href="/sector-summary">Sector Indices</a></th></tr></thead></table></div>' +
    '<div class="section section--padded" id="indexConstituentsTable"><div class="tbl__wrapper">' +
    '<div class="loader"><div class="spinner"></div></div></div></div>';
  return shell(ds, token, 'Indices - Pakistan Stock Exchange (PSX)', '/indices', content);
}

// The summary's template has commented-out columns; the comments sit between the cells and one of
// them spans two lines and mentions a change class, which trips naive parsers.
const SUMMARY_HEAD_COMMENTS =
  '<!-- th.right(style="width:90px;") Open--><!-- th.right(style="width:90px;") Current-->' +
  '<!-- th.right(style="width:90px;") Change-->';
const SUMMARY_ROW_COMMENTS =
  "<!-- td.right=numeral(sector.open).format('0,0.00')--><!-- td.right=numeral(sector.close).format('0,0.00')-->" +
  "<!-- td.right(class='change__text--' + dir)!=changeIcon(dir)\n=numeral(sector.change).format('0.00')-->";

/** `GET /sector-summary/sectorwise`: summary table, then one member table per sector. */
export function renderSectorSummary(ds: Dataset): string {
  const summaryRows = ds.sectorPage.sectors.map((s) => {
    const name = escapeHtml(s.sectorName);
    return (
      `<tr><td>${s.sectorCode}</td><td data-order="${name}"><a href="javascript:" data-code="${s.sectorCode}">` +
      `<strong>${name}</strong></a></td><td class="right">${s.advance ?? 0}</td>` +
      `<td class="right">${s.decline ?? 0}</td><td class="right">${s.unchanged ?? 0}</td>${SUMMARY_ROW_COMMENTS}` +
      `${numCell(s.turnover ?? 0, formatFixed(s.turnover ?? 0, 0))}` +
      `<td class="right">${formatFixed(s.marketCapB ?? 0, 2)}</td></tr>`
    );
  });
  const summary =
    '<div class="sectorSummary__sectors"><div class="tbl__wrapper"><table class="tbl" data-page-length="100">' +
    '<thead class="tbl__head"><tr><th style="width:110px;">Sector Code</th><th>Sector Name</th>' +
    '<th class="right" style="width:90px;">Advance</th><th class="right" style="width:90px;">Decline</th>' +
    `<th class="right" style="width:90px;">Unchange</th>${SUMMARY_HEAD_COMMENTS}` +
    '<th class="right" style="width:140px;">Turnover</th><th class="right" style="width:140px;">Market Cap. (B)</th>' +
    `</tr></thead><tbody class="tbl__body">${summaryRows.join('')}</tbody></table></div></div>`;

  const options = ds.sectors.map((s) => `<option value="${s.code}">${escapeHtml(s.name)}</option>`).join('');
  const form =
    '<div class="form form--styled"><div class="form__fields"><div class="form__field back">' +
    '<button class="form__button form__button--clear" id="backButton">BACK</button></div>' +
    '<div class="form__field"><div class="sectorSummary__companies__sector__dropdown"><div class="dropdown">' +
    `<select class="dropdown__select" name="sectorName"><option value="all">ALL SECTORS</option>${options}` +
    '</select></div></div></div></div></div>';

  const memberHead =
    '<th data-name="symbol">SYMBOL</th><th data-name="name" style="width:180px;">NAME</th>' +
    '<th class="right" data-name="ldcp">LDCP</th><th class="right" data-name="open">OPEN</th>' +
    '<th class="right" data-name="high">HIGH</th><th class="right" data-name="low">LOW</th>' +
    '<th class="right" data-name="close">CURRENT</th><th class="right" data-name="change">CHANGE</th>' +
    '<th class="right" data-name="percentChange">CHANGE (%)</th><th class="right" data-name="volume">VOLUME</th>';
  const tables = ds.sectors.map((s) => {
    const members = ds.sectorMemberRows(s.code);
    // A sector without members keeps its table, with an empty head and body.
    const head = members.length > 0 ? `<tr>${memberHead}</tr>` : '';
    const rows = members.map((r) => {
      const sym = escapeHtml(r.symbol);
      return (
        `<tr class="${r.traded ? 'traded' : 'zero'}"><td data-search="${sym}" data-order="${sym}">` +
        `${symbolLink(r.symbol, r.name, true)}${tagsHtml(ds.instrument(r.symbol))}</td>` +
        `<td><a class="tbl__symbol" href="/company/${encodeURIComponent(r.symbol)}" target="_blank">` +
        `<strong>${escapeHtml(r.name)}</strong></a></td>` +
        numCell(r.ldcp, formatFixed(r.ldcp, 2)) +
        numCell(r.open, formatFixed(r.open, 2)) +
        numCell(r.high, formatFixed(r.high, 2)) +
        numCell(r.low, formatFixed(r.low, 2)) +
        numCell(r.current, formatFixed(r.current, 2)) +
        changeCell(r.change, '') +
        changeCell(r.changePct, '%') +
        numCell(r.volume, formatFixed(r.volume, 0)) +
        '</tr>'
      );
    });
    return (
      `<div class="sectorSummary__companies__table" data-code="${s.code}"><h3>${escapeHtml(s.name)}</h3>` +
      '<div class="tbl__wrapper"><table class="tbl" data-page-length="100">' +
      `<thead class="tbl__head">${head}</thead><tbody class="tbl__body">${rows.join('')}</tbody></table></div></div>`
    );
  });
  return `${summary}<div class="sectorSummary__companies">${form}${tables.join('')}</div>`;
}

const dateCells = new Map<string, string>();

/** Row start and date cell, shared by every symbol's history (a benchmark renders 1,000 of them). */
function dateCell(date: string): string {
  let cell = dateCells.get(date);
  if (cell === undefined) {
    cell = `<tr><td data-order="${dateOrder(date)}">${formatDateText(date)}</td>`;
    dateCells.set(date, cell);
  }
  return cell;
}

/** `POST /historical`: the whole history, newest first; an empty body for unknown symbols. */
export function renderHistorical(ds: Dataset, symbol: string): string {
  const rows = ds.history(symbol);
  const parts: string[] = [
    '<!-- .note div * Prices are not adjusted for corporate actions.-->' +
      '<div class="tbl__wrapper tbl__wrapper--scrollable"><table class="tbl" id="historicalTable" data-page-length="25">' +
      // `DATE ` keeps the portal's trailing space; numeric cells have no data-order.
      '<thead class="tbl__head"><tr><th data-name="time" data-type="string">DATE </th>' +
      '<th class="right" data-name="open" data-type="number">OPEN</th>' +
      '<th class="right" data-name="high" data-type="number">HIGH</th>' +
      '<th class="right" data-name="low" data-type="number">LOW</th>' +
      '<th class="right" data-name="close" data-type="number">CLOSE</th>' +
      '<th class="right" data-name="volume" data-type="number">VOLUME</th></tr></thead><tbody class="tbl__body">',
  ];
  for (const r of rows) {
    parts.push(
      dateCell(r.date) +
        `<td class="right">${formatFixed(r.open ?? 0, 2)}</td><td class="right">${formatFixed(r.high ?? 0, 2)}</td>` +
        `<td class="right">${formatFixed(r.low ?? 0, 2)}</td><td class="right">${formatFixed(r.close ?? 0, 2)}</td>` +
        `<td class="right">${formatFixed(r.volume ?? 0, 0)}</td></tr>`,
    );
  }
  parts.push('</tbody></table></div>');
  return parts.join('');
}

/** `GET /company/reports/{SYM}`: the reports table; null for a symbol the portal does not know. */
export function renderReports(ds: Dataset, symbol: string): string | null {
  const reports = ds.reports(symbol);
  if (reports === null) return null;
  const rows = reports.map(
    (r) =>
      `<tr><td><a href="${r.document}" target="_blank">${escapeHtml(r.type)}</a></td>` +
      `<td class="center">${r.periodEnded}</td><td class="center">${r.postingDate}</td></tr>`,
  );
  return (
    '<div class="tbl__wrapper"><table class="tbl" data-page-length="25"><thead class="tbl__head"><tr>' +
    '<th>Reports</th><th class="center" style="width:120px;">Period Ended</th>' +
    '<th class="center" style="width:120px;">Posting Date</th></tr></thead>' +
    `<tbody class="tbl__body">${rows.join('')}</tbody></table></div>`
  );
}

/** The portal's generic page for an unknown symbol or index: titled `Not Found`, no data table. */
export function renderNotFoundPage(ds: Dataset, token: string, path: string): string {
  return shell(
    ds,
    token,
    'Not Found',
    path,
    pageHeader('Not Found') +
      '<div class="section section--padded"><p>The page you are looking for could not be found.</p></div>',
  );
}

/** The `garbage` failure: a 200 page that looks like the portal but has none of the expected tables. */
export function renderGarbagePage(): string {
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Pakistan Stock Exchange (PSX)</title></head><body>' +
    '<div class="content"><div class="section section--padded"><h1 class="section__title">Scheduled Maintenance</h1>' +
    '<p>The data portal is being updated. Please try again shortly.</p></div></div></body></html>'
  );
}

const STATUS_TEXT: Record<number, string> = {
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
};

/** A front-end proxy's bare error page (403 from the gate, 5xx/429 from failure injection). */
export function renderErrorPage(status: number): string {
  const text = `${status} ${STATUS_TEXT[status] ?? 'Error'}`;
  return (
    `<html><head><title>${text}</title></head><body><center><h1>${text}</h1></center>` +
    '<hr><center>nginx</center></body></html>'
  );
}
