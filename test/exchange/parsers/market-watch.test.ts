import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseMarketWatch } from '../../../src/exchange/parsers/market-watch.ts';
import { change, num, page, symbolCell, table, td, th } from './html.ts';

const HEADERS = [
  th('SYMBOL', 'data-name="symbol"'),
  th('SECTOR', 'data-name="sector"'),
  th('LISTED IN', 'data-name="listed"'),
  th('LDCP', 'class="right" data-name="ldcp"'),
  th('OPEN', 'class="right" data-name="open"'),
  th('HIGH', 'class="right" data-name="high"'),
  th('LOW', 'class="right" data-name="low"'),
  th('CURRENT', 'class="right" data-name="close"'),
  th('CHANGE', 'class="right" data-name="change"'),
  th('CHANGE (%)', 'class="right" data-name="percentChange"'),
  th('VOLUME', 'class="right" data-name="volume"'),
];

describe('parseMarketWatch', () => {
  it('reads a row, rounding the float noise of CHANGE (%)', () => {
    const html = page(
      table(HEADERS, [
        [
          symbolCell('FCCL', 'Fauji Cement Company Limited', 'XD'),
          td('0804'),
          td('ACI,ALLSHR,KMI30'),
          num('52.38', '52.38'),
          num('52.93', '52.93'),
          num('53.5', '53.50'),
          num('52.65', '52.65'),
          num('51.48', '51.48'),
          change('-0.9', '-0.90'),
          change('-1.7239999999999998', '-1.72%'),
          num('3307781', '3,307,781'),
        ],
      ]),
    );
    assert.deepEqual(parseMarketWatch(html), [
      {
        symbol: 'FCCL',
        name: 'Fauji Cement Company Limited',
        sectorCode: '0804',
        listedIn: ['ACI', 'ALLSHR', 'KMI30'],
        ldcp: 52.38,
        open: 52.93,
        high: 53.5,
        low: 52.65,
        current: 51.48,
        change: -0.9,
        changePct: -1.724,
        volume: 3307781,
      },
    ]);
  });

  it('reads every status tag variant as the bare symbol', () => {
    const rows = ['XD', 'XB', 'XR', 'NC', 'DEF'].map((tag, i) => [
      symbolCell(`SYM${i}`, `Company ${i}`, tag),
      td('0801'),
      td(''),
      num(1, '1'),
      num(1, '1'),
      num(1, '1'),
      num(1, '1'),
      num(1, '1'),
      change(0, '0'),
      change(0, '0%'),
      num(1, '1'),
    ]);
    assert.deepEqual(
      parseMarketWatch(page(table(HEADERS, rows))).map((r) => r.symbol),
      ['SYM0', 'SYM1', 'SYM2', 'SYM3', 'SYM4'],
    );
  });

  it('locates CURRENT by data-name should the label change', () => {
    const headers = [th('SYMBOL'), th('LAST', 'data-name="close"')];
    const rows = parseMarketWatch(
      page(table(headers, [[symbolCell('ABL', 'Allied'), num('170', '170.00')]])),
    );
    assert.equal(rows[0]?.current, 170);
  });

  it('gives [] for an empty body; missing CURRENT is an UpstreamDataError', () => {
    assert.deepEqual(parseMarketWatch(page(table(HEADERS, []))), []);
    assert.throws(
      () => parseMarketWatch(page(table(['SYMBOL', 'LDCP'], []))),
      (e: unknown) => e instanceof UpstreamDataError && e.pageKind === 'market-watch',
    );
  });
});
