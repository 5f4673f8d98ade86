// The baseline the parsers are measured against: a straightforward cheerio implementation of the
// same extraction (cheerio's default `load()`, parse5 underneath; DOM queries; header lookup by
// text). It produces the same portal rows as src/exchange/parsers, checked by the parse benchmark;
// the cell → value rules (numbers, dates, symbols) are the project's own helpers, so the comparison
// measures the HTML handling only.
import { load, type Cheerio, type CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import {
  cellInteger,
  cellNumber,
  cellScaledNumber,
  cellSymbol,
  cellText,
  isSymbol,
  splitList,
} from '../src/exchange/parsers/cells.ts';
import {
  karachiDateFromEpoch,
  karachiDateTime,
  monthNumber,
  parseDisplayDate,
} from '../src/exchange/parsers/dates.ts';
import type { Cell } from '../src/exchange/html/table.ts';
import { collapseWhitespace } from '../src/exchange/html/text.ts';
import type {
  HistoryRow,
  IndexConstituentRow,
  IndexConstituentsPage,
  IndexLevelRow,
  IndexLevelsPage,
  MarketWatchRow,
  ScreenerRow,
  SectorMembers,
  SectorPage,
  SectorSummaryRow,
} from '../src/exchange/types.ts';

interface Grid {
  headers: string[];
  headerNames: (string | null)[];
  rows: Cell[][];
}

function attr(el: Cheerio<Element>, name: string): string | null {
  return el.attr(name) ?? null;
}

function cellOf(td: Cheerio<Element>): Cell {
  const strong = td.find('strong, b').first();
  const link = td.find('a').first();
  return {
    text: collapseWhitespace(td.text()),
    order: attr(td, 'data-order'),
    search: attr(td, 'data-search'),
    strong: strong.length > 0 ? collapseWhitespace(strong.text()) || null : null,
    linkCode: link.length > 0 ? attr(link, 'data-code') : null,
    linkTitle: link.length > 0 ? attr(link, 'data-title') : null,
    href: link.length > 0 ? attr(link, 'href') : null,
    links: td
      .find('a')
      .toArray()
      .map((a) => ({
        href: a.attribs['href'] ?? null,
        images: a.attribs['data-images'] ?? null,
        text: collapseWhitespace(td.find(a).text()),
      })),
  };
}

function gridOf($: CheerioAPI, table: Cheerio<Element>): Grid {
  const ths = table.find('thead th');
  const headers = ths.toArray().map((th) => collapseWhitespace($(th).text()).toLowerCase());
  const headerNames = ths.toArray().map((th) => $(th).attr('data-name') ?? null);
  const rows = table
    .find('tbody tr')
    .toArray()
    .map((tr) =>
      $(tr)
        .children('td')
        .toArray()
        .map((td) => cellOf($(td))),
    )
    .filter((r) => r.length > 0);
  return { headers, headerNames, rows };
}

/** Column index by accepted labels, then by `th[data-name]`; -1 when absent. */
function column(grid: Grid, labels: readonly string[], dataName?: string): number {
  for (const label of labels) {
    const i = grid.headers.indexOf(label);
    if (i >= 0) return i;
  }
  return dataName === undefined ? -1 : grid.headerNames.indexOf(dataName);
}

function at(row: Cell[], i: number): Cell | undefined {
  return i < 0 ? undefined : row[i];
}

/** The first of `tables` whose headers include every `required` label. */
function firstGrid($: CheerioAPI, tables: readonly Element[], required: readonly string[]): Grid {
  for (const el of tables) {
    const grid = gridOf($, $(el));
    if (required.every((label) => grid.headers.includes(label))) return grid;
  }
  throw new Error(`no table with ${required.join(', ')}`);
}

export function cheerioHistory(html: string): HistoryRow[] {
  const $ = load(html);
  const grid = firstGrid(
    $,
    [...$('table#historicalTable').toArray(), ...$('table').toArray()],
    ['date', 'close'],
  );
  const c = {
    date: column(grid, ['date'], 'time'),
    open: column(grid, ['open'], 'open'),
    high: column(grid, ['high'], 'high'),
    low: column(grid, ['low'], 'low'),
    close: column(grid, ['close'], 'close'),
    volume: column(grid, ['volume'], 'volume'),
  };
  const rows: HistoryRow[] = [];
  for (const row of grid.rows) {
    const dateCell = at(row, c.date);
    if (dateCell === undefined) continue;
    const epoch = Number(dateCell.order);
    const date =
      dateCell.order !== null && epoch >= 1e8 && epoch < 1e10
        ? karachiDateFromEpoch(epoch)
        : parseDisplayDate(dateCell.text);
    if (date === null) continue;
    rows.push({
      date,
      open: cellNumber(at(row, c.open)),
      high: cellNumber(at(row, c.high)),
      low: cellNumber(at(row, c.low)),
      close: cellNumber(at(row, c.close)),
      volume: cellInteger(at(row, c.volume)),
    });
  }
  return rows;
}

export function cheerioScreener(html: string): ScreenerRow[] {
  const $ = load(html);
  const grid = firstGrid(
    $,
    [...$('table#screenerTable').toArray(), ...$('table').toArray()],
    ['symbol', 'price'],
  );
  const c = {
    symbol: column(grid, ['symbol'], 'symbol'),
    sector: column(grid, ['sector'], 'sector'),
    listedIn: column(grid, ['listed in'], 'listed'),
    marketCap: column(grid, ['market cap.', 'market cap'], 'marketCap'),
    price: column(grid, ['price'], 'close'),
    changePct: column(grid, ['change (%)'], 'percentChange'),
    change1yPct: column(grid, ['1-year ch. (%) *', '1-year ch. (%)'], 'changeYear'),
    peRatio: column(grid, ['pe ratio (ttm)', 'p/e ratio (ttm)'], 'peRatio'),
    dividendYield: column(grid, ['dividend yield (%)'], 'dividendYield'),
    freeFloat: column(grid, ['free float'], 'freeFloat'),
    volumeAvg30d: column(grid, ['30d volume avg.', '30d volume avg'], 'volume30Avg'),
  };
  const rows: ScreenerRow[] = [];
  for (const row of grid.rows) {
    const symbolCell = at(row, c.symbol);
    const symbol = cellSymbol(symbolCell);
    if (symbol === null) continue;
    rows.push({
      symbol,
      name: symbolCell?.linkTitle?.trim() || null,
      sectorCode: cellText(at(row, c.sector)),
      listedIn: splitList(cellText(at(row, c.listedIn))),
      marketCap: cellNumber(at(row, c.marketCap)),
      price: cellNumber(at(row, c.price)),
      changePct: cellNumber(at(row, c.changePct)),
      change1yPct: cellNumber(at(row, c.change1yPct)),
      peRatio: cellNumber(at(row, c.peRatio)),
      dividendYield: cellNumber(at(row, c.dividendYield)),
      freeFloat: cellNumber(at(row, c.freeFloat)),
      volumeAvg30d: cellNumber(at(row, c.volumeAvg30d)),
    });
  }
  return rows;
}

export function cheerioMarketWatch(html: string): MarketWatchRow[] {
  const $ = load(html);
  const grid = firstGrid($, $('table').toArray(), ['symbol', 'current']);
  const c = {
    symbol: column(grid, ['symbol'], 'symbol'),
    sector: column(grid, ['sector'], 'sector'),
    listedIn: column(grid, ['listed in'], 'listed'),
    ldcp: column(grid, ['ldcp'], 'ldcp'),
    open: column(grid, ['open'], 'open'),
    high: column(grid, ['high'], 'high'),
    low: column(grid, ['low'], 'low'),
    current: column(grid, ['current'], 'close'),
    change: column(grid, ['change'], 'change'),
    changePct: column(grid, ['change (%)'], 'percentChange'),
    volume: column(grid, ['volume'], 'volume'),
  };
  const rows: MarketWatchRow[] = [];
  for (const row of grid.rows) {
    const symbolCell = at(row, c.symbol);
    const symbol = cellSymbol(symbolCell);
    if (symbol === null) continue;
    rows.push({
      symbol,
      name: symbolCell?.linkTitle?.trim() || null,
      sectorCode: cellText(at(row, c.sector)),
      listedIn: splitList(cellText(at(row, c.listedIn))),
      ldcp: cellNumber(at(row, c.ldcp)),
      open: cellNumber(at(row, c.open)),
      high: cellNumber(at(row, c.high)),
      low: cellNumber(at(row, c.low)),
      current: cellNumber(at(row, c.current)),
      change: cellNumber(at(row, c.change)),
      changePct: cellNumber(at(row, c.changePct)),
      volume: cellInteger(at(row, c.volume)),
    });
  }
  return rows;
}

export function cheerioIndexConstituents(html: string): IndexConstituentsPage {
  const $ = load(html);
  const grid = firstGrid($, $('table').toArray(), ['symbol', 'current']);
  const c = {
    symbol: column(grid, ['symbol']),
    name: column(grid, ['name']),
    ldcp: column(grid, ['ldcp']),
    current: column(grid, ['current']),
    change: column(grid, ['change']),
    changePct: column(grid, ['change (%)']),
    idxWeight: column(grid, ['idx wtg (%)', 'idx wtg']),
    idxPoint: column(grid, ['idx point']),
    volume: column(grid, ['volume']),
    freeFloat: column(grid, ['freefloat (m)', 'free float (m)']),
    shares: column(grid, ['shares (m)']),
    marketCap: column(grid, ['market cap (m)', 'market cap. (m)']),
  };
  const sizeColumn = c.freeFloat >= 0 ? 'freefloat' : c.shares >= 0 ? 'shares' : null;
  const rows: IndexConstituentRow[] = [];
  for (const row of grid.rows) {
    const symbolCell = at(row, c.symbol);
    const symbol = cellSymbol(symbolCell);
    if (symbol === null) continue;
    const r: IndexConstituentRow = {
      symbol,
      name: cellText(at(row, c.name)) ?? (symbolCell?.linkTitle?.trim() || null),
      ldcp: cellNumber(at(row, c.ldcp)),
      current: cellNumber(at(row, c.current)),
      change: cellNumber(at(row, c.change)),
      changePct: cellNumber(at(row, c.changePct)),
      idxWeight: cellNumber(at(row, c.idxWeight)),
      idxPoint: cellNumber(at(row, c.idxPoint)),
      volume: cellInteger(at(row, c.volume)),
      marketCap: cellScaledNumber(at(row, c.marketCap), 1e6),
    };
    if (sizeColumn === 'freefloat') r.freeFloat = cellScaledNumber(at(row, c.freeFloat), 1e6);
    if (sizeColumn === 'shares') r.shares = cellScaledNumber(at(row, c.shares), 1e6);
    rows.push(r);
  }
  const title = collapseWhitespace($('h1, h2, h3, h4, h5, h6').first().text()) || null;
  return { title, sizeColumn, rows };
}

const AS_OF =
  /As of\s+([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?/;
const STALE = /\((\d{1,2})-(\d{1,2})-(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\)/;

function asOf(text: string): string | null {
  const m = AS_OF.exec(text);
  const month = m === null ? null : monthNumber(m[1] as string);
  if (m === null || month === null) return null;
  let hour = Number(m[4]);
  const meridiem = m[7]?.toLowerCase();
  if (meridiem !== undefined) hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  return karachiDateTime(Number(m[3]), month, Number(m[2]), hour, Number(m[5]), Number(m[6] ?? 0));
}

export function cheerioIndexLevels(html: string): IndexLevelsPage {
  const $ = load(html);
  const grid = firstGrid(
    $,
    [...$('#indicesTable table').toArray(), ...$('table').toArray()],
    ['index', 'current'],
  );
  const c = {
    index: column(grid, ['index']),
    high: column(grid, ['high']),
    low: column(grid, ['low']),
    current: column(grid, ['current']),
    change: column(grid, ['change']),
    changePct: column(grid, ['% change', 'change (%)']),
  };
  const rows: IndexLevelRow[] = [];
  for (const row of grid.rows) {
    const cell = at(row, c.index);
    if (cell === undefined) continue;
    const code = [cell.linkCode, cell.strong, cell.text.split(' ')[0] ?? null]
      .map((s) => s?.trim())
      .find((s): s is string => s !== undefined && isSymbol(s));
    if (code === undefined) continue;
    const stale = STALE.exec(cell.text);
    rows.push({
      index: code.toUpperCase(),
      high: cellNumber(at(row, c.high)),
      low: cellNumber(at(row, c.low)),
      current: cellNumber(at(row, c.current)),
      change: cellNumber(at(row, c.change)),
      changePct: cellNumber(at(row, c.changePct)),
      staleSince:
        stale === null
          ? null
          : karachiDateTime(
              Number(stale[3]),
              Number(stale[2]),
              Number(stale[1]),
              Number(stale[4]),
              Number(stale[5]),
              Number(stale[6] ?? 0),
            ),
    });
  }
  const scope = $('#indicesTable').clone();
  scope.find('table').remove();
  return { asOf: asOf(scope.text()) ?? asOf($.root().text()), rows };
}

export function cheerioSectorSummary(html: string): SectorPage {
  const $ = load(html);
  const summaryTables = $('table').filter(
    (_, el) => $(el).closest('.sectorSummary__companies__table').length === 0,
  );
  const grid = firstGrid($, summaryTables.toArray(), ['sector code', 'sector name']);
  const c = {
    code: column(grid, ['sector code']),
    name: column(grid, ['sector name']),
    advance: column(grid, ['advance']),
    decline: column(grid, ['decline']),
    unchanged: column(grid, ['unchange', 'unchanged']),
    turnover: column(grid, ['turnover']),
    marketCapB: column(grid, ['market cap. (b)', 'market cap (b)']),
  };
  const sectors: SectorSummaryRow[] = [];
  for (const row of grid.rows) {
    const code = cellText(at(row, c.code));
    const nameCell = at(row, c.name);
    const name = nameCell === undefined ? '' : nameCell.order?.trim() || nameCell.strong || nameCell.text;
    if (code === null || name.length === 0) continue;
    sectors.push({
      sectorCode: code,
      sectorName: name,
      advance: cellInteger(at(row, c.advance)),
      decline: cellInteger(at(row, c.decline)),
      unchanged: cellInteger(at(row, c.unchanged)),
      turnover: cellNumber(at(row, c.turnover)),
      marketCapB: cellNumber(at(row, c.marketCapB)),
    });
  }
  const names = new Map(sectors.map((s) => [s.sectorCode, s.sectorName]));
  const members: SectorMembers[] = [];
  for (const el of $('div.sectorSummary__companies__table[data-code]').toArray()) {
    const div = $(el);
    const sectorCode = (div.attr('data-code') ?? '').trim();
    if (sectorCode.length === 0) continue;
    const symbols: string[] = [];
    for (const t of div.find('table').toArray()) {
      const g = gridOf($, $(t));
      const col = column(g, ['symbol'], 'symbol');
      for (const row of g.rows) {
        const s = cellSymbol(at(row, col));
        if (s !== null) symbols.push(s);
      }
    }
    const heading = collapseWhitespace(div.find('h1, h2, h3, h4, h5, h6').first().text()) || null;
    members.push({ sectorCode, sectorName: heading ?? names.get(sectorCode) ?? '', symbols });
  }
  return { sectors, members };
}
