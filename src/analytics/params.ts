// What an analytics request may ask for: the return periods and the bounds of the indicators' `i=`
// list. Kept apart from the arithmetic so that the request schemas, built at start, can name them
// while the computation itself is loaded at the first request that needs it.

export const PERIODS = ['1D', '1W', '1M', '3M', '6M', 'YTD', '1Y', '3Y', '5Y', 'ALL'] as const;
export type Period = (typeof PERIODS)[number];

export const MAX_INDICATORS = 10;
/** The longest window: about twenty years of trading days, longer than any history the portal has. */
export const MAX_WINDOW = 5000;
export const MAX_BAND_WIDTH = 10;

export const ACCEPTED =
  'sma:N, ema:N, rsi:N, atr:N, vwap:N (N a whole number of days 1–5000), macd:FAST:SLOW:SIGNAL (FAST < SLOW), bbands:N:K (K 0–10, may have decimals), obv; parameters may be left out for the defaults sma:20, ema:20, rsi:14, macd:12:26:9, bbands:20:2, atr:14, vwap:20';
