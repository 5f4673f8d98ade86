// The start-up warm-up parses synthetic pages in the portal's structure; if they stopped parsing,
// the warm-up would throw at start (or, worse, warm nothing), so both are checked here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHistory } from '../../../src/exchange/parsers/history.ts';
import { syntheticHistoryPage, warmUpParsers } from '../../../src/exchange/parsers/warm-up.ts';
import { startFakePortal } from '../../../dev/fake-portal/server.ts';
import { startService } from '../../helpers/service.ts';

describe('parser warm-up', () => {
  it('parses a synthetic history page of real size into well-formed rows, newest first', () => {
    const rows = parseHistory(syntheticHistoryPage(2162));
    assert.equal(rows.length, 2162);
    assert.equal(rows[0]!.date, '2026-01-02');
    assert.equal(rows[1]!.date, '2026-01-01');
    assert.equal(rows[0]!.volume, 1_000_000);
    for (const row of rows) {
      assert.ok(row.close !== null && row.close > 0, `${row.date} has a close`);
      assert.ok(row.volume !== null && Number.isInteger(row.volume) && row.volume >= 1_000_000);
    }
    assert.deepEqual(warmUpParsers(1).pages, 1);
  });

  it('runs when the listening service settles (PARSER_WARM_UP on), says so in the log, and the service still answers', async () => {
    const portal = await startFakePortal();
    const lines: string[] = [];
    const svc = await startService(
      portal.url,
      { LOG_LEVEL: 'info', PARSER_WARM_UP: 'true' },
      { logLines: lines },
    );
    try {
      const parsed = () => lines.map((l) => JSON.parse(l) as { msg: string; pages?: number; ms?: number });
      assert.equal(
        parsed().find((l) => l.msg === 'parsers warmed up'),
        undefined,
        'not before settling',
      );
      svc.service.warmUp();
      const line = parsed().find((l) => l.msg === 'parsers warmed up');
      assert.ok(line, 'a warm-up line');
      assert.equal(line.pages, 3);
      assert.ok(typeof line.ms === 'number' && line.ms >= 0);
      const res = await fetch(`${svc.url}/stocks/ENGRO/historical`);
      assert.equal(res.status, 200);
      assert.ok(((await res.json()) as { data: unknown[] }).data.length > 0);
    } finally {
      await svc.close();
      await portal.close();
    }
  });

  it('is off with PARSER_WARM_UP=false: settling only compacts the heap', async () => {
    const portal = await startFakePortal();
    const lines: string[] = [];
    const svc = await startService(portal.url, { LOG_LEVEL: 'info' }, { logLines: lines });
    try {
      svc.service.warmUp();
      assert.ok(!lines.some((l) => l.includes('parsers warmed up')));
    } finally {
      await svc.close();
      await portal.close();
    }
  });
});
