// GET /boards/{board}: the other markets' boards (futures, cash-settled futures, index futures,
// odd lot, bills and bonds) joined with the eligible-scrips page: every eligible symbol, with its
// row when the board has one today, and any board row the eligible list does not name. Either page
// may fail alone: without the board the eligible symbols are served with null prices, without the
// eligible list the board's rows are; `meta.missing` names the page left out. Only when both fail
// does the answer fail (with the board's error).
import { combine, type Provenance } from '../../cache/types.ts';
import type { BoardRow, EligibleMarket } from '../../exchange/feed-types.ts';
import { answerKey, marketAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { FeedDatasets } from './feed-datasets.ts';
import { BOARDS, type BoardName, type BoardQuoteT } from '../models/feeds.ts';
import { degraded, had, lacking, Missing, missingMeta, secondary } from '../partial.ts';

function quote(
  symbol: string,
  name: string | null,
  eligible: boolean | null,
  row: BoardRow | undefined,
  boardKnown: boolean,
): BoardQuoteT {
  return {
    symbol,
    name: row?.name ?? name,
    eligible,
    on_board: boardKnown ? row !== undefined : null,
    bid_volume: row?.bidVolume ?? null,
    bid_price: row?.bidPrice ?? null,
    offer_volume: row?.offerVolume ?? null,
    offer_price: row?.offerPrice ?? null,
    ldcp: row?.ldcp ?? null,
    change: row?.change ?? null,
    volume: row?.volume ?? null,
    last_price: row?.lastPrice ?? null,
  };
}

export async function board(
  feeds: FeedDatasets,
  name: BoardName,
  ctx: RequestContext,
): Promise<Answer<BoardQuoteT[]>> {
  const def = BOARDS[name];
  const [rows, markets] = await Promise.all([
    secondary('board', feeds.board(def.path, ctx)),
    secondary('eligible_scrips', feeds.eligibleScrips(ctx)),
  ]);
  if (rows instanceof Missing && markets instanceof Missing) throw rows.error;
  const boardRows: readonly BoardRow[] = rows instanceof Missing ? [] : rows.value;
  const bySymbol = new Map(boardRows.map((r) => [r.symbol, r]));
  const eligibleKnown = !(markets instanceof Missing);
  const scrips: EligibleMarket['scrips'] = eligibleKnown
    ? (markets.value.find((m) => m.code === def.market)?.scrips ?? [])
    : [];
  const listed = new Set(scrips.map((s) => s.symbol));
  const boardKnown = !(rows instanceof Missing);
  const data = [
    ...scrips.map((s) => quote(s.symbol, s.name, true, bySymbol.get(s.symbol), boardKnown)),
    ...boardRows
      .filter((r) => !listed.has(r.symbol))
      .map((r) => quote(r.symbol, r.name, eligibleKnown ? false : null, r, true)),
  ];
  const missing = lacking([rows, markets]);
  const missingParts = missingMeta(missing);
  const provenance = degraded(combine(had([rows, markets])), missing);
  // The board's fetch dates the prices; without it, the eligible list's.
  const dated: Provenance | Missing = rows instanceof Missing ? markets : rows;
  if (dated instanceof Missing) throw dated.error;
  return {
    key: answerKey('board', name),
    data,
    provenance,
    asOf: marketAsOf(dated.fetchedAt),
    ...(missingParts ? { meta: { missing: missingParts } } : {}),
  };
}
