import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseReports } from '../../../src/exchange/parsers/reports.ts';
import { page, table, td } from './html.ts';

const PDF = 'https://financials.psx.com.pk/lib/DownloadPDF.php?id=';

function report(type: string, href: string, period: string, posted: string): string[] {
  return [td(`<a href="${href}" target="_blank">${type}</a>`), td(period), td(posted)];
}

describe('parseReports', () => {
  it('reads the company reports table', () => {
    const html = page(
      table(
        ['Reports', 'Period Ended', 'Posting Date'],
        [
          report('Annual', `${PDF}258917`, '2025', '2026-03-06'),
          report('Quarterly', `${PDF}275409`, '2026-03-31', '2026-04-28'),
          report('Half Yearly', '/download/document/280977.pdf', 'Jun 30, 2026', '10/08/2026'),
        ],
      ),
    );
    assert.deepEqual(parseReports(html, 'hbl'), [
      {
        symbol: 'HBL',
        year: '2025',
        type: 'Annual',
        periodEnded: '2025',
        postingDate: '2026-03-06',
        document: `${PDF}258917`,
      },
      {
        symbol: 'HBL',
        year: '2026',
        type: 'Quarterly',
        periodEnded: '2026-03-31',
        postingDate: '2026-04-28',
        document: `${PDF}275409`,
      },
      {
        symbol: 'HBL',
        year: '2026',
        type: 'Half Yearly',
        periodEnded: '2026-06-30',
        postingDate: '2026-08-10',
        document: 'https://dps.psx.com.pk/download/document/280977.pdf',
      },
    ]);
  });

  it('reads the /financial-reports-list column set, keeping the asked symbol only', () => {
    const headers = [
      'SYMBOL',
      'NAME',
      'YEAR',
      'TYPE',
      'PERIOD ENDED',
      'POSTING DATE',
      'POSTING TIME',
      'DOCUMENT',
    ];
    const row = (symbol: string, id: string): string[] => [
      td(`<strong>${symbol}</strong>`, `data-order="${symbol}"`),
      td(`${symbol} Limited`),
      td('2025'),
      td('Annual'),
      td('Dec 31, 2025'),
      td('Mar 6, 2026'),
      td('10:15 AM'),
      td(`<a href="${PDF}${id}">PDF</a>`),
    ];
    const html = page(table(headers, [row('HBL', '1'), row('ENGRO', '2')], 'class="tbl" id="reportsTable"'));
    assert.deepEqual(parseReports(html, 'ENGRO'), [
      {
        symbol: 'ENGRO',
        year: '2025',
        type: 'Annual',
        periodEnded: '2025-12-31',
        postingDate: '2026-03-06',
        document: `${PDF}2`,
      },
    ]);
    assert.equal(parseReports(html, null).length, 2);
  });

  it('skips rows without a document link or a year; unknown date forms stay as given', () => {
    const html = page(
      table(
        ['Reports', 'Period Ended', 'Posting Date'],
        [
          report('Annual', 'javascript:', '2025', '2026-03-06'),
          [td('Annual'), td('2025'), td('2026-03-06')],
          report('Annual', `${PDF}9`, 'n/a', 'soon'),
          report('Quarterly', `${PDF}10`, 'Q3 FY2026', '2026-04-28'),
        ],
      ),
    );
    assert.deepEqual(parseReports(html, 'X'), [
      {
        symbol: 'X',
        year: '2026',
        type: 'Quarterly',
        periodEnded: 'Q3 FY2026',
        postingDate: '2026-04-28',
        document: `${PDF}10`,
      },
    ]);
  });

  it('gives [] for a header-only table; rejects a page without one', () => {
    const headers = [
      'SYMBOL',
      'NAME',
      'YEAR',
      'TYPE',
      'PERIOD ENDED',
      'POSTING DATE',
      'POSTING TIME',
      'DOCUMENT',
    ];
    assert.deepEqual(parseReports(page(table(headers, [])), 'HBL'), []);
    assert.throws(
      () => parseReports(page('<div class="tbl__wrapper"></div>'), 'HBL'),
      (e: unknown) => e instanceof UpstreamDataError && e.pageKind === 'reports',
    );
  });
});
