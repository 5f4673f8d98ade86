// GET /boards/{board}: the other markets' boards (futures, cash-settled futures, index futures,
// odd lot, bills and bonds) joined with the eligible-scrips page: every eligible symbol, with its
// row when the board has one today, and any board row the eligible list does not name.
import { combine } from '../cache/types.ts';
import type { BoardRow } from '../exchange/feed-types.ts';
import { answerKey, marketAsOf, type Answer } from './answer.ts';
import type { RequestContext } from './context.ts';
import type { FeedDatasets } from './feed-datasets.ts';
import { BOARDS, type BoardName, type BoardQuoteT } from './models-feeds.ts';

function quote(
  symbol: string,
  name: string | null,
  eligible: boolean,
  row: BoardRow | undefined,
): BoardQuoteT {
  return {
    symbol,
    name: row?.name ?? name,
    eligible,
    on_board: row !== undefined,
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
  const [rows, markets] = await Promise.all([feeds.board(def.path, ctx), feeds.eligibleScrips(ctx)]);
  const bySymbol = new Map(rows.value.map((r) => [r.symbol, r]));
  const scrips = markets.value.find((m) => m.code === def.market)?.scrips ?? [];
  const listed = new Set(scrips.map((s) => s.symbol));
  const data = [
    ...scrips.map((s) => quote(s.symbol, s.name, true, bySymbol.get(s.symbol))),
    ...rows.value.filter((r) => !listed.has(r.symbol)).map((r) => quote(r.symbol, r.name, false, r)),
  ];
  const provenance = combine([rows, markets]);
  return { key: answerKey('board', name), data, provenance, asOf: marketAsOf(rows.fetchedAt) };
}
