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
    for (const row of rows) {
      assert.ok(row.close !== null && row.close > 0, `${row.date} has a close`);
      assert.ok(row.volume !== null && Number.isInteger(row.volume) && row.volume >= 1_000_000);
    }
    assert.deepEqual(warmUpParsers(1).pages, 1);
  });

  it('runs before the service listens when PARSER_WARM_UP is on, and says so in the log', async () => {
    const portal = await startFakePortal();
    const lines: string[] = [];
    const svc = await startService(
      portal.url,
      { LOG_LEVEL: 'info', PARSER_WARM_UP: 'true' },
      { logLines: lines },
    );
    try {
      const warmed = lines.map((l) => JSON.parse(l) as { msg: string; pages?: number; ms?: number });
      const line = warmed.find((l) => l.msg === 'parsers warmed up');
      assert.ok(line, 'a warm-up line');
      assert.equal(line.pages, 3);
      assert.ok(typeof line.ms === 'number' && line.ms >= 0);
      const listening = warmed.findIndex((l) => l.msg.startsWith('Server listening'));
      assert.ok(listening === -1 || warmed.indexOf(line) < listening, 'warmed up before listening');
    } finally {
      await svc.close();
      await portal.close();
    }
  });
});
