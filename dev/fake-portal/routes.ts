// Which page answers a portal request: the method and path (and a POST's form) to the rendered page,
// each page rendered once per key through the page cache (the market watch and intraday series once
// per market step). A path nothing answers gets the portal's Not Found page.
import { renderCompanyPage } from './company.ts';
import { renderEod, renderPayouts } from './corporate-actions.ts';
import { dailyFileBody, hasDailyFile } from './daily-files.ts';
import type { Dataset } from './dataset.ts';
import { renderFeed } from './feeds.ts';
import type { MarketMotion } from './intraday.ts';
import { HTML, JSON_TYPE, page, TOKEN_MARK, type Page, type PageCache } from './page-cache.ts';
import {
  renderHistorical,
  renderHomePage,
  renderIndexConstituents,
  renderIndicesPage,
  renderMarketWatch,
  renderNotFoundPage,
  renderReports,
  renderScreenerPage,
  renderSectorSummary,
  renderSymbolsJson,
} from './pages.ts';

export type Router = (method: string, path: string, form: URLSearchParams) => Page;

export function createRouter(
  dataset: Dataset,
  motion: MarketMotion,
  cache: PageCache,
  now: () => number = () => Date.parse(`${dataset.asOfDate}T23:59:59Z`),
): Router {
  const html = (key: string, status: number, render: () => string): Page =>
    cache.get(key, () => page(status, HTML, render()));
  const notFound = (path: string, status: number): Page =>
    html(`notfound:${status}:${path}`, status, () => renderNotFoundPage(dataset, TOKEN_MARK, path));

  return function route(method: string, path: string, form: URLSearchParams): Page {
    if (method === 'GET') {
      if (path === '/') return html('home', 200, () => renderHomePage(dataset, TOKEN_MARK));
      if (path === '/symbols')
        return cache.get('symbols', () => page(200, JSON_TYPE, renderSymbolsJson(dataset)));
      if (path === '/screener') return html('screener', 200, () => renderScreenerPage(dataset, TOKEN_MARK));
      if (path === '/market-watch')
        return html(`market-watch:${motion.step}`, 200, () => renderMarketWatch(motion.view()));
      const series = /^\/timeseries\/(int|eod)\/([^/]+)$/.exec(path);
      if (series) {
        const code = decodeURIComponent(series[2] as string);
        const json = series[1] === 'int' ? motion.intradayJson(code) : motion.indexEodJson(code);
        if (json !== null)
          return cache.get(`${series[1]}:${code}:${motion.step}`, () => page(200, JSON_TYPE, json));
      }
      if (path === '/indices') return html('indices', 200, () => renderIndicesPage(dataset, TOKEN_MARK));
      if (path === '/sector-summary/sectorwise')
        return html('sectors', 200, () => renderSectorSummary(dataset));
      const index = /^\/indices\/([^/]+)$/.exec(path);
      if (index) {
        const code = decodeURIComponent(index[1] as string);
        // Unknown index: the generic Not Found page (HTTP 200), never an empty constituents table.
        return cache.get(`index:${code}`, () => {
          const body = renderIndexConstituents(dataset, code);
          return page(200, HTML, body ?? renderNotFoundPage(dataset, TOKEN_MARK, path));
        });
      }
      const company = /^\/company\/([^/]+)$/.exec(path);
      if (company) {
        const symbol = decodeURIComponent(company[1] as string);
        return html(
          `company:${symbol}`,
          200,
          () =>
            renderCompanyPage(dataset, symbol, TOKEN_MARK) ?? renderNotFoundPage(dataset, TOKEN_MARK, path),
        );
      }
      const reports = /^\/company\/reports\/([^/]+)$/.exec(path);
      if (reports) {
        const symbol = decodeURIComponent(reports[1] as string);
        return cache.get(`reports:${symbol}`, () => {
          const body = renderReports(dataset, symbol);
          return page(200, HTML, body ?? renderNotFoundPage(dataset, TOKEN_MARK, path));
        });
      }
    }
    const eod = method === 'GET' ? /^\/timeseries\/eod\/([^/]+)$/.exec(path) : null;
    if (eod) {
      const symbol = decodeURIComponent(eod[1] as string);
      return cache.get(`eod:${symbol}`, () => page(200, JSON_TYPE, renderEod(dataset, symbol)));
    }
    if (method === 'POST' && path === '/company/payouts') {
      const symbol = form.get('symbol') ?? '';
      return html(`payouts:${symbol}`, 200, () => renderPayouts(symbol));
    }
    if (method === 'POST' && path === '/historical') {
      // The portal ignores the date fields and returns the symbol's whole history.
      const symbol = form.get('symbol') ?? '';
      return html(`historical:${symbol}`, 200, () => renderHistorical(dataset, symbol));
    }
    const daily = method === 'GET' ? /^\/download\/mkt_summary\/([^/]+)\.Z$/.exec(path) : null;
    if (daily) {
      const date = daily[1] as string;
      // A day without a file: the portal's 404 HTML page (~47 KB on the real one).
      if (!hasDailyFile(dataset, date, now())) return notFound(path, 404);
      return cache.get(`daily-file:${date}`, () => binaryPage(dailyFileBody(dataset, date)));
    }
    const feed = renderFeed(dataset, method, path, form);
    if (feed) return page(feed.status, feed.type === 'json' ? JSON_TYPE : HTML, feed.text);
    return notFound(path, 404);
  };
}

function binaryPage(body: Buffer): Page {
  return { status: 200, type: 'application/octet-stream', parts: [body], bytes: body.length };
}
