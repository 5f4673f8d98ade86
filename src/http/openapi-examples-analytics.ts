// OpenAPI examples of the analytics endpoints (performance, indicators, rankings): the requests and
// error examples; the answers are generated (openapi-examples.generated.ts, `npm run gen:examples`).
import type { OperationExamples } from './openapi-example-types.ts';

const ACCEPTED_TAIL =
  'i accepts sma:N, ema:N, rsi:N, atr:N, vwap:N (N a whole number of days 1–5000), macd:FAST:SLOW:SIGNAL (FAST < SLOW), bbands:N:K (K 0–10, may have decimals), obv; parameters may be left out for the defaults sma:20, ema:20, rsi:14, macd:12:26:9, bbands:20:2, atr:14, vwap:20';

export const ANALYTICS_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/performance': {
    params: { symbol: 'ENGRO', adjusted: true, dividends: false, benchmark: 'KSE100' },
    request: '/stocks/ENGRO/performance',
    client: "await api.GET('/stocks/{symbol}/performance', { params: { path: { symbol: 'ENGRO' } } })",
    errors: {
      422: [{ code: 'bad_request', message: 'adjusted must be true or false (got "yes")' }],
      404: [{ code: 'not_found', message: 'NOSUCH not found' }],
    },
  },
  '/stocks/{symbol}/indicators': {
    params: {
      symbol: 'ENGRO',
      i: 'sma:20,ema:50,rsi:14,macd:12:26:9,bbands:20:2,atr:14,obv,vwap:20',
      start: '2026-11-19',
      end: '2026-11-20',
      adjusted: true,
    },
    request:
      '/stocks/ENGRO/indicators?i=sma:20,ema:50,rsi:14,macd:12:26:9,bbands:20:2,atr:14,obv,vwap:20&start=2026-11-19&end=2026-11-20',
    client:
      "await api.GET('/stocks/{symbol}/indicators', { params: { path: { symbol: 'ENGRO' }, query: { i: 'sma:20,rsi:14', start: '2026-11-19' } } })",
    errors: {
      400: [{ code: 'bad_request', message: 'start (2026-11-20) is after end (2026-11-16)' }],
      404: [{ code: 'not_found', message: 'NOSUCH not found' }],
      422: [
        {
          code: 'bad_request',
          message: `sma n must be a whole number 1–5000 (got "sma:0"); ${ACCEPTED_TAIL}`,
        },
        { code: 'bad_request', message: `unknown indicator "foo"; ${ACCEPTED_TAIL}` },
        { code: 'bad_request', message: 'i names 11 indicators; at most 10 per request' },
      ],
    },
  },
  '/indices/{name}/performance': {
    params: { name: 'KSE100' },
    request: '/indices/KSE100/performance',
    client: "await api.GET('/indices/{name}/performance', { params: { path: { name: 'KSE100' } } })",
    errors: { 404: [{ code: 'not_found', message: 'index NOSUCH not found' }] },
  },
  '/market/performance': {
    params: { period: '1M', sector: '0809', index: 'KSE100' },
    request: '/market/performance?sector=0809&period=1M',
    client: "await api.GET('/market/performance', { params: { query: { sector: '0809', period: '1M' } } })",
    errors: {
      400: [{ code: 'bad_request', message: 'give index or sector, not both' }],
      404: [{ code: 'not_found', message: 'index NOSUCH not found' }],
      422: [
        {
          code: 'bad_request',
          message: 'period must be 1D, 1W, 1M, 3M, 6M, YTD, 1Y, 3Y, 5Y or ALL (got "2M")',
        },
      ],
    },
  },
  '/sectors/performance': {
    params: { period: '1M' },
    request: '/sectors/performance?period=1M',
    client: "await api.GET('/sectors/performance', { params: { query: { period: '1M' } } })",
    errors: {
      422: [
        {
          code: 'bad_request',
          message: 'period must be 1D, 1W, 1M, 3M, 6M, YTD, 1Y, 3Y, 5Y or ALL (got "2M")',
        },
      ],
    },
  },
};
