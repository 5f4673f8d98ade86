// The fake portal's dataset is a pure function of its options: the same seed and day give the same
// market, byte for byte, whatever shape the generating code takes. The digests below were taken
// from the dataset code before it was split into its pieces (one concern per file); a change that
// moves any generated number fails here, and one that means to must say so by updating them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { createDataset, type DatasetOptions } from '../../dev/fake-portal/dataset.ts';

/** Every value the dataset gives, in a fixed order, as JSON. */
function digest(options: DatasetOptions): string {
  const ds = createDataset(options);
  const hash = createHash('sha256');
  const put = (label: string, value: unknown): void => {
    hash.update(label);
    hash.update(JSON.stringify(value) ?? 'undefined');
    hash.update('\n');
  };
  put('plain', {
    options: ds.options,
    asOfDate: ds.asOfDate,
    asOfLabel: ds.asOfLabel,
    asOfIso: ds.asOfIso,
    sectors: ds.sectors,
    instruments: ds.instruments,
    symbols: ds.symbols,
    screener: ds.screener,
    marketWatch: ds.marketWatch,
    indexCodes: ds.indexCodes,
    indexLevels: ds.indexLevels,
    sectorPage: ds.sectorPage,
    anomalies: ds.anomalies,
  });
  for (const inst of ds.instruments) {
    put(`day:${inst.symbol}`, ds.day(inst.symbol));
    put(`history:${inst.symbol}`, ds.history(inst.symbol));
    put(`reports:${inst.symbol}`, ds.reports(inst.symbol));
    put(`instrument:${inst.symbol}`, ds.instrument(inst.symbol));
  }
  for (const code of [...ds.indexCodes, 'NOSUCH']) {
    put(`index:${code}`, ds.indexInfo(code));
    put(`constituents:${code}`, ds.indexConstituents(code));
  }
  for (const sector of [...ds.sectors, { code: '9999' }])
    put(`sector:${sector.code}`, ds.sectorMemberRows(sector.code));
  put('unknown', [ds.day('NOSUCH'), ds.history('NOSUCH'), ds.reports('NOSUCH'), ds.instrument('NOSUCH')]);
  return hash.digest('hex');
}

const CASES: [string, DatasetOptions, string][] = [
  [
    'the default market (the documented values)',
    {},
    'e8673275ff732b2fc68be10e80874009a42f9454701190609b8092f300b05b22',
  ],
  [
    'another seed with extra symbols and short histories',
    { seed: 7, extraSymbols: 60, historyRows: 120 },
    '0145d887355bb6e5910ce42aa942527868dc8b13e7a48be6d8f19d02139389ba',
  ],
  [
    'another day, during a session',
    { asOfDate: '2026-11-18', asOfTime: '11:05' },
    'f75b458e0886b7953088a47e4c191c76eeb60cc4d8724fcd278bc699971b132b',
  ],
];

for (const [name, options, expected] of CASES) {
  test(`the dataset for ${name} is byte-identical to its recorded digest`, () => {
    assert.equal(digest(options), expected);
  });
}
