// The typed client against the real service and the fake portal, imported the way a user would:
// through the workspace package psx-market-data-client (its compiled dist/).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { HISTORY_ANOMALIES } from '../../dev/fake-portal/dataset.ts';
import { startService, type RunningService } from '../helpers/service.ts';
import { ApiError, createClient, getCsv, unwrap, type ApiClient } from 'psx-market-data-client';

describe('typed client', () => {
  let portal: FakePortal;
  let service: RunningService;
  let api: ApiClient;

  before(async () => {
    portal = await startFakePortal();
    service = await startService(portal.url);
    api = createClient({ baseUrl: `${service.url}/` });
  });

  after(async () => {
    await service?.close();
    await portal?.close();
  });

  it('reads index levels as the fake portal shows them', async () => {
    const { data, error, response } = await api.GET('/indices');
    assert.equal(error, undefined);
    assert.equal(response.status, 200);
    assert.ok(data);
    const kse100 = data.data.find((level) => level.index === 'KSE100');
    const expected = portal.dataset.indexLevels.rows.find((r) => r.index === 'KSE100');
    assert.ok(kse100 && expected?.current != null && expected.change != null);
    // The portal prints 2 decimals; the dataset behind it keeps the unrounded value.
    assert.equal(kse100.current, expected.current);
    assert.equal(kse100.change, Math.round(expected.change * 100) / 100);
    assert.equal(data.meta.count, data.data.length);
  });

  it('passes path and query parameters, typed', async () => {
    const { data } = await unwrap(
      api.GET('/stocks/{symbol}/historical', {
        params: {
          path: { symbol: 'ENGRO' },
          query: { start: '2025-06-12', end: '2025-06-16', order: 'desc' },
        },
      }),
    );
    assert.deepEqual(
      data.map((row) => row.date),
      ['2025-06-16', '2025-06-13', '2025-06-12'],
    );
    const exDate = data.find((row) => row.date === HISTORY_ANOMALIES.bonusExDate);
    assert.deepEqual(exDate?.anomaly_reasons, ['beyond_price_limit']);

    const quote = await unwrap(api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'engro' } } }));
    assert.equal(quote.data.symbol, 'ENGRO');
    assert.equal(typeof quote.data.price, 'number');
  });

  it('returns the error envelope, and unwrap throws it as an ApiError', async () => {
    const { data, error, response } = await api.GET('/stocks/{symbol}/quote', {
      params: { path: { symbol: 'NOSUCH' } },
    });
    assert.equal(data, undefined);
    assert.equal(response.status, 404);
    assert.deepEqual(error, { error: { status: 404, code: 'not_found', message: 'NOSUCH not found' } });

    await assert.rejects(
      unwrap(api.GET('/indices/{name}', { params: { path: { name: 'NOSUCH' } } })),
      (err: unknown) =>
        err instanceof ApiError &&
        err.status === 404 &&
        err.code === 'not_found' &&
        err.message === 'index NOSUCH not found',
    );
  });

  it('reads CSV as text through getCsv, and its errors as ApiErrors', async () => {
    const csv = await getCsv(api, '/stocks/{symbol}/historical', {
      params: { path: { symbol: 'ENGRO' }, query: { start: '2025-06-12', end: '2025-06-16' } },
    });
    const lines = csv.trim().split(/\r?\n/);
    assert.match(lines[0] ?? '', /^date,/);
    assert.equal(lines.length, 4, 'a header and three trading days');
    assert.match(lines[1] ?? '', /^2025-06-12,/);

    const sectors = await getCsv(api, '/sectors');
    assert.match(sectors, /^[a-z_]+(,[a-z_]+)+\r?\n/);

    await assert.rejects(
      getCsv(api, '/indices/{name}', { params: { path: { name: 'NOSUCH' } } }),
      (err: unknown) => err instanceof ApiError && err.status === 404 && err.code === 'not_found',
    );
  });

  it('reports the service’s message when the portal is down and nothing is cached', async () => {
    const cold = await startService(portal.url);
    portal.fail({ mode: 'down' });
    try {
      const coldApi = createClient({ baseUrl: cold.url });
      await assert.rejects(unwrap(coldApi.GET('/sectors')), (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.status, 503);
        assert.equal(err.code, 'exchange_unavailable');
        assert.match(err.message, /the exchange could not be reached/);
        return true;
      });
    } finally {
      portal.clear();
      await cold.close();
    }
  });
});

// Never called: `tsc --noEmit` (npm run check) proves that mistakes are compile errors. Each
// expect-error directive below fails the type check if its line ever stops being an error.
export async function _compileTimeChecks(api: ApiClient): Promise<void> {
  const { data } = await unwrap(api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'ENGRO' } } }));
  const price: number | null = data.price;
  // @ts-expect-error a wrong field name
  void data.prcie;
  // @ts-expect-error a field of the wrong type
  const name: number = data.name;
  // @ts-expect-error an unknown path
  await api.GET('/stock/{symbol}/quote', { params: { path: { symbol: 'ENGRO' } } });
  // @ts-expect-error a missing path parameter
  await api.GET('/stocks/{symbol}/quote', { params: { path: {} } });
  // @ts-expect-error an unknown query parameter
  await api.GET('/stocks/{symbol}/historical', { params: { path: { symbol: 'ENGRO' }, query: { limt: 5 } } });
  const symbol = { symbol: 'ENGRO' };
  // @ts-expect-error a query value of the wrong type
  await api.GET('/stocks/{symbol}/historical', { params: { path: symbol, query: { order: 'newest' } } });
  // @ts-expect-error the API is read-only: there is no POST
  await api.POST('/indices');
  // @ts-expect-error CSV is text, not offered through the JSON methods (getCsv answers it)
  await api.GET('/screener', { params: { query: { format: 'csv' } } });
  const csv: string = await getCsv(api, '/screener');
  // @ts-expect-error getCsv only takes paths that answer CSV
  await getCsv(api, '/health');
  // @ts-expect-error getCsv needs the path parameters
  await getCsv(api, '/stocks/{symbol}/historical');
  void csv;
  void price;
  void name;
}
