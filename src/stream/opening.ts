// What a new stream is sent first: the events it missed since Last-Event-ID when this replica
// still holds them all, else a snapshot (one quote event per symbol, under the last event id).
// The snapshot is the quote /stocks/{symbol}/quote answers now, built from the same cached market
// watch, so a stream and the REST endpoints never show two prices or two as_of for one moment.
import { memoByDataset } from '../cache/memo.ts';
import { NotFoundError } from '../errors.ts';
import type { RequestContext } from '../market/context.ts';
import type { Datasets } from '../market/datasets.ts';
import type { QuoteT } from '../market/models/resources.ts';
import { quote } from '../market/quotes/quotes.ts';
import { frame } from './events.ts';
import type { StreamHub } from './hub.ts';

/** Browsers reconnect after this long when a stream ends (SSE `retry:`). */
const RETRY_MS = 3000;

export interface Opening {
  /** The symbols the exchange lists, in the order asked: what the stream follows. */
  symbols: string[];
  /** The first bytes: `retry:`, a `: not_found …` comment if any, then the events. */
  text: string;
  events: number;
}

/** A quote's JSON, made once per quote object (many streams open on the same market watch). */
const jsonOf = memoByDataset((q: QuoteT): string => JSON.stringify(q));

/** Throws NotFoundError when none of the symbols is listed. */
export async function openingOf(
  hub: StreamHub,
  datasets: Datasets,
  asked: readonly string[],
  lastEventId: string | undefined,
  ctx: RequestContext,
): Promise<Opening> {
  const symbols: string[] = [];
  const notFound: string[] = [];
  const snapshot: string[] = [];
  for (const symbol of asked) {
    let data: string;
    try {
      data = jsonOf((await quote(datasets, symbol, ctx)).data);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      notFound.push(symbol);
      continue;
    }
    symbols.push(symbol);
    snapshot.push(frame({ id: hub.lastEventId, symbol, data }));
  }
  if (symbols.length === 0) throw new NotFoundError(`none of ${asked.join(', ')} is listed`);
  const head = `retry: ${RETRY_MS}\n${notFound.length > 0 ? `: not_found ${notFound.join(',')}\n` : ''}\n`;
  const lastId = Number(lastEventId);
  const missed =
    lastEventId !== undefined && Number.isInteger(lastId) && lastId >= 0
      ? hub.missedSince(lastId, symbols)
      : undefined;
  if (missed !== undefined)
    return { symbols, text: head + missed.map(frame).join(''), events: missed.length };
  return { symbols, text: head + snapshot.join(''), events: snapshot.length };
}
