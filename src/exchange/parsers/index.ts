// The portal page parsers: pure functions from a page's text to typed rows (upstream.md §3).
export { parseToken } from './token.ts';
export { parseSymbols } from './symbols.ts';
export { parseScreener } from './screener.ts';
export { parseMarketWatch } from './market-watch.ts';
export { parseIndexConstituents } from './index-constituents.ts';
export { parseIndexLevels } from './index-levels.ts';
export { parseSectorSummary } from './sector-summary.ts';
export { parseHistory } from './history.ts';
export { parseReports } from './reports.ts';
export { parseCompany } from './company.ts';
export { parseEod } from './eod.ts';
export { parsePayouts } from './payouts.ts';
export { parseIntraday } from './intraday.ts';
export { parseIndexSeries } from './index-series.ts';
