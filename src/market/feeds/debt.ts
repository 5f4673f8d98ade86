// GET /debt and GET /debt/{code}/quote: the debt market's instruments (`GET /debt-market`) and the
// bills-and-bonds board's quotes (`GET /trading-board/BNB/bnb`).
import { NotFoundError } from '../../errors.ts';
import { combine } from '../../cache/types.ts';
import { answerFrom, answerKey, marketAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { FeedDatasets } from './feed-datasets.ts';
import { BOARDS, type DebtInstrumentT, type DebtQuoteT } from '../models/feeds.ts';
import { degraded, had, lacking, Missing, missingMeta, secondary } from '../partial.ts';

export async function debtInstruments(
  feeds: FeedDatasets,
  ctx: RequestContext,
): Promise<Answer<DebtInstrumentT[]>> {
  const cached = await feeds.debtMarket(ctx);
  const data = cached.value.map((d) => ({
    code: d.code,
    name: d.name,
    table: d.table,
    group: d.heading,
    face_value: d.faceValue,
    listing_date: d.listingDate,
    issue_date: d.issueDate,
    issue_size: d.issueSize,
    maturity_date: d.maturityDate,
    coupon_rate: d.couponRate,
    previous_coupon_date: d.previousCouponDate,
    next_coupon_date: d.nextCouponDate,
    outstanding_days: d.outstandingDays,
    remaining_years: d.remainingYears,
  }));
  return answerFrom(cached, data, answerKey('debt'));
}

export async function debtQuote(
  feeds: FeedDatasets,
  rawCode: string,
  ctx: RequestContext,
): Promise<Answer<DebtQuoteT>> {
  const code = rawCode.toUpperCase();
  // The board is the quote; the debt-market page only names the instrument, so without it the
  // quote is served with the board's name and meta.missing says the listing is left out.
  const [board, listing] = await Promise.all([
    feeds.board(BOARDS['bills-and-bonds'].path, ctx),
    secondary('debt_market', feeds.debtMarket(ctx)),
  ]);
  const row = board.value.find((r) => r.symbol === code);
  const instrument = listing instanceof Missing ? undefined : listing.value.find((d) => d.code === code);
  if (row === undefined) {
    throw new NotFoundError(
      instrument === undefined
        ? `${code} is not on the debt market (GET /debt lists its instruments)`
        : `${code} is on the debt market, but the bills and bonds board has no quote for it today`,
    );
  }
  const missing = lacking([listing]);
  const missingParts = missingMeta(missing);
  const provenance = degraded(combine(had([board, listing])), missing);
  return {
    key: answerKey('debt-quote', code),
    provenance,
    asOf: marketAsOf(board.fetchedAt),
    ...(missingParts ? { meta: { missing: missingParts } } : {}),
    data: {
      code,
      name: instrument?.name ?? row.name,
      bid_volume: row.bidVolume,
      bid_price: row.bidPrice,
      offer_volume: row.offerVolume,
      offer_price: row.offerPrice,
      ldcp: row.ldcp,
      change: row.change,
      volume: row.volume,
      bid_yield: row.bidYield,
      offer_yield: row.offerYield,
      last_price: row.lastPrice,
      last_yield: row.lastYield,
      ldcy: row.ldcy,
    },
  };
}
