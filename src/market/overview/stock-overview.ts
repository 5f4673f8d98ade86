// GET /stocks/{symbol}/overview: a symbol's page in one request. The parts are the existing
// endpoints' answers, settled one by one (overview-parts.ts). The company page comes first and the
// quote waits for it a short while, so a cold symbol's first answer carries the circuit breaker,
// 52-week range and bid/ask; the pages fewer readers need (intraday, corporate actions, reports)
// are asked for after the first ones, so a client short of exchange fetches spends them on those.
import { NotFoundError, ServiceError } from '../../errors.ts';
import { answerKey, type Answer } from '../answer.ts';
import { addDays } from '../../time/karachi.ts';
import { announcements, financials, profile } from '../company/company.ts';
import { symbolPage, type RequestContext } from '../context.ts';
import { corporateActions } from '../corporate-actions/corporate-actions.ts';
import type { Datasets } from '../datasets.ts';
import { fundamentals } from '../company/fundamentals.ts';
import type { MarketArchive } from '../archive/archive.ts';
import { stockIntraday } from '../history/intraday.ts';
import { overviewHistory } from './history-part.ts';
import { marketState, type OverviewClock } from './market-state.ts';
import { oldestAsOf, overviewProvenance, settle, type Part, type Settled } from './parts.ts';
import type { HistoricalRowT } from '../models/resources.ts';
import type { MarketStateT } from '../models/overview.ts';
import { quote } from '../quotes/quotes.ts';
import { isKnownSymbol, normaliseSymbol } from '../symbols.ts';

/** How long the quote waits for a cold company page (its extras) before answering without them. */
export const COMPANY_WAIT_MS = 1_500;
const HISTORY_DAYS = 365;
const ANNOUNCEMENTS_SHOWN = 10;

export interface StockOverviewT {
  symbol: string;
  market: MarketStateT;
  quote: Part<unknown>;
  profile: Part<unknown>;
  history: Part<HistoricalRowT[]>;
  intraday: Part<unknown>;
  corporate_actions: Part<unknown>;
  announcements: Part<unknown>;
  financials: Part<unknown>;
  reports: Part<unknown>;
}

/** The rows of the last HISTORY_DAYS calendar days before the newest row (oldest first). */
export function lastYear(rows: HistoricalRowT[]): HistoricalRowT[] {
  const newest = rows[rows.length - 1];
  if (newest === undefined) return rows;
  const from = addDays(newest.date, -HISTORY_DAYS);
  let i = rows.length;
  while (i > 0 && rows[i - 1]!.date > from) i--;
  return rows.slice(i);
}

export interface StockOverviewOptions {
  /**
   * Where the chart may come from without a portal fetch (history-part.ts); the corporate actions'
   * kept rows and closing-file markers, as /stocks/{symbol}/corporate-actions reads them.
   */
  archive?: MarketArchive;
  /** How long the quote waits for the company page's band and range (COMPANY_WAIT_MS). */
  companyWaitMs?: number;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function stockOverview(
  datasets: Datasets,
  rawSymbol: string,
  client: RequestContext,
  clock: OverviewClock,
  options: StockOverviewOptions = {},
): Promise<Answer<StockOverviewT>> {
  const { archive, companyWaitMs = COMPANY_WAIT_MS } = options;
  const symbol = normaliseSymbol(rawSymbol);
  const now = clock.now;
  // One page for the client's exchange-fetch budget, however many parts it fetches; the parts
  // below the chart are spare, so a reader clicking through symbols gets each one's price, chart
  // and 52-week range before the exchange fetches of the minute go on the parts below them.
  const ctx = symbolPage(client, symbol);
  const spare: RequestContext = { ...ctx, spare: true };
  // An unknown symbol is a 404 for the whole; when the lists cannot be had, the parts say why.
  // The quote's two shared pages come first: a client short of exchange fetches spends them on
  // the price before the symbol's own pages.
  const orLater = (err: unknown): true => {
    if (err instanceof ServiceError) return true;
    throw err;
  };
  const [known] = await Promise.all([
    isKnownSymbol(datasets, symbol, ctx).catch(orLater),
    datasets.screener(ctx).catch(orLater),
    datasets.marketWatch(ctx).catch(orLater),
  ]);
  if (!known) throw new NotFoundError(`${symbol} not found`);

  const profilePart = settle(() => profile(datasets, symbol, ctx), now);
  const history = overviewHistory(datasets, symbol, ctx, archive);
  const historyPart = settle(history.answer, now, lastYear);
  const quotePart = Promise.race([profilePart, delay(companyWaitMs)]).then(() =>
    settle(() => quote(datasets, symbol, ctx), now),
  );
  // The company page is one fetch for all three; these wait for it rather than race it.
  const announcementsPart = profilePart.then(() =>
    settle(
      () => announcements(datasets, symbol, undefined, ctx),
      now,
      (rows) => rows.slice(0, ANNOUNCEMENTS_SHOWN),
    ),
  );
  const financialsPart = profilePart.then(() =>
    settle(() => financials(datasets, symbol, 'annual', ctx), now),
  );
  const later = Promise.all([profilePart, historyPart]);
  const intradayPart = later.then(() => settle(() => stockIntraday(datasets, symbol, '5m', spare), now));
  const actionsPart = later.then(() =>
    settle(() => corporateActions(datasets, symbol, spare, archive, history.raw()), now),
  );
  const reportsPart = later.then(() => settle(() => fundamentals(datasets, symbol, spare), now));

  const settled = await Promise.all([
    quotePart,
    profilePart,
    historyPart,
    intradayPart,
    actionsPart,
    announcementsPart,
    financialsPart,
    reportsPart,
  ]);
  const [quoted, prof, bars, intraday, actions, news, fin, reports] = settled as Settled<unknown>[] as [
    Settled<unknown>,
    Settled<unknown>,
    Settled<HistoricalRowT[]>,
    Settled<unknown>,
    Settled<unknown>,
    Settled<unknown>,
    Settled<unknown>,
    Settled<unknown>,
  ];
  const market = marketState(clock);
  const nowMs = now();
  const provenance = overviewProvenance(settled, nowMs);
  const parts = settled.map((s) => s.part);
  const missing = history.missing();
  return {
    key: answerKey('stock-overview', symbol),
    data: {
      symbol,
      market: market.state,
      quote: quoted.part,
      profile: prof.part,
      history: bars.part,
      intraday: intraday.part,
      corporate_actions: actions.part,
      announcements: news.part,
      financials: fin.part,
      reports: reports.part,
    },
    provenance: {
      ...provenance,
      freshUntil: Math.max(nowMs, Math.min(provenance.freshUntil, market.changesAt)),
      version: `${provenance.version}|${market.version}`,
    },
    asOf: oldestAsOf(parts, nowMs),
    meta: {
      history_source: history.source(),
      ...(missing ? { missing: [missing] } : {}),
    },
  };
}
