// OpenAPI examples of the analytics endpoints (performance, indicators, rankings): the requests, and
// the requests that get each documented error; the answers are generated
// (openapi-examples.generated.ts, `npm run gen:examples`).
import type { OperationExamples } from './example-types.ts';

export const ANALYTICS_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/performance': {
    params: { symbol: 'ENGRO', adjusted: true, dividends: false, benchmark: 'KSE100', end: '2026-06-30' },
    request: '/stocks/ENGRO/performance',
    client: "await api.GET('/stocks/{symbol}/performance', { params: { path: { symbol: 'ENGRO' } } })",
    errors: {
      400: [{ request: '/stocks/ENGRO/performance?end=2026-12-01' }],
      422: [{ request: '/stocks/ENGRO/performance?adjusted=yes' }],
      404: [
        { request: '/stocks/NOSUCH/performance' },
        { request: '/stocks/ENGRO/performance?end=2001-01-01' },
      ],
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
      400: [{ request: '/stocks/ENGRO/indicators?i=sma:20&start=2026-11-20&end=2026-11-16' }],
      404: [{ request: '/stocks/NOSUCH/indicators?i=sma:20' }],
      422: [
        { request: '/stocks/ENGRO/indicators?i=sma:0' },
        { request: '/stocks/ENGRO/indicators?i=foo' },
        {
          request: `/stocks/ENGRO/indicators?i=${Array.from({ length: 11 }, (_, i) => `sma:${i + 2}`).join(',')}`,
        },
      ],
    },
  },
  '/indices/{name}/performance': {
    params: { name: 'KSE100', end: '2026-06-30' },
    request: '/indices/KSE100/performance',
    client: "await api.GET('/indices/{name}/performance', { params: { path: { name: 'KSE100' } } })",
    errors: {
      400: [{ request: '/indices/KSE100/performance?end=2026-12-01' }],
      404: [{ request: '/indices/NOSUCH/performance' }],
    },
  },
  '/market/performance': {
    params: { period: '1M', sector: '0809', index: 'KSE100', end: '2026-06-30' },
    request: '/market/performance?sector=0809&period=1M',
    client: "await api.GET('/market/performance', { params: { query: { sector: '0809', period: '1M' } } })",
    errors: {
      400: [
        { request: '/market/performance?index=KSE100&sector=0809' },
        { request: '/market/performance?end=2026-12-01' },
      ],
      404: [{ request: '/market/performance?index=NOSUCH' }],
      422: [{ request: '/market/performance?period=2M' }],
    },
  },
  '/sectors/performance': {
    params: { period: '1M', end: '2026-06-30' },
    request: '/sectors/performance?period=1M',
    client: "await api.GET('/sectors/performance', { params: { query: { period: '1M' } } })",
    errors: {
      400: [{ request: '/sectors/performance?end=2026-12-01' }],
      422: [{ request: '/sectors/performance?period=2M' }],
    },
  },
};
