// Financial-report listings. The symbol is checked against the portal's lists first, so an unknown
// symbol costs no report-page fetch and gets a clean 404.
import { NotFoundError } from '../../errors.ts';
import type { ReportRow } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, fetchAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { FundamentalsRowT } from '../models/resources.ts';
import { isKnownSymbol, normaliseSymbol } from '../symbols.ts';

const fundamentalsRows = memoByDataset((rows: readonly ReportRow[]) =>
  rows.map((r): FundamentalsRowT => ({
    symbol: r.symbol ?? '',
    year: r.year,
    type: r.type,
    period_ended: r.periodEnded,
    posting_date: r.postingDate,
    document: r.document,
  })),
);

export async function fundamentals(
  datasets: Datasets,
  rawSymbol: string,
  ctx: RequestContext,
): Promise<Answer<FundamentalsRowT[]>> {
  const symbol = normaliseSymbol(rawSymbol);
  if (!(await isKnownSymbol(datasets, symbol, ctx))) throw new NotFoundError(`${symbol} not found`);
  const cached = await datasets.reports(symbol, ctx);
  const rows = fundamentalsRows(cached.value).map((r) => (r.symbol ? r : { ...r, symbol }));
  return answerFrom(cached, rows, answerKey('fundamentals', symbol), fetchAsOf(cached.fetchedAt));
}
