// Financial reports (`/company/reports/{SYM}`): three fiscal years of quarterly, half-yearly and
// annual filings, posted a plausible delay after each period's end.
import type { ReportRow } from '../../src/exchange/types.ts';
import { DAY_MS, formatDay, nextWorkingDay, parseDay } from './calendar.ts';
import type { Instrument } from './dataset-types.ts';
import { rngFor } from './random.ts';

export const PDF_BASE = 'https://financials.psx.com.pk/lib/DownloadPDF.php?id=';

export function generateReports(seed: number, inst: Instrument, asOfDate: string): ReportRow[] {
  const rng = rngFor(seed, `reports:${inst.symbol}`);
  const fye = inst.fiscalYearEndMonth;
  const asOf = parseDay(asOfDate);
  const rows: { row: ReportRow; posted: number }[] = [];
  // Walk quarter ends backwards (Sep 2026, Jun 2026, …) over three fiscal years.
  let year = 2026;
  let month = 9;
  for (let q = 0; q < 14; q++, month -= 3) {
    if (month <= 0) {
      month += 12;
      year -= 1;
    }
    const periodEnd = Date.UTC(year, month, 0);
    const monthsIntoFy = (((month - fye) % 12) + 12) % 12;
    const type = monthsIntoFy === 0 ? 'Annual' : monthsIntoFy === 6 ? 'Half Yearly' : 'Quarterly';
    const delayDays =
      type === 'Annual'
        ? 70 + Math.floor(rng() * 25)
        : type === 'Half Yearly'
          ? 45 + Math.floor(rng() * 14)
          : 22 + Math.floor(rng() * 8);
    const posted = nextWorkingDay(periodEnd + delayDays * DAY_MS);
    if (posted > asOf) continue;
    const periodIso = formatDay(periodEnd);
    rows.push({
      posted,
      row: {
        symbol: inst.symbol,
        year: periodIso.slice(0, 4),
        type,
        periodEnded: type === 'Annual' ? periodIso.slice(0, 4) : periodIso,
        postingDate: formatDay(posted),
        document: `${PDF_BASE}${200000 + inst.ordinal * 40 + q}`,
      },
    });
  }
  rows.sort((a, b) => b.posted - a.posted);
  return rows.map((r) => r.row);
}
