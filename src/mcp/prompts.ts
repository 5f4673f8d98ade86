// One prompt: the analysis agents are most often asked for, written once with the tools it needs,
// so a user picks "analyse a symbol" instead of spelling out which data to gather.
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { invalidParams } from './rpc-error.ts';

export const PROMPTS = [
  {
    name: 'analyse_symbol',
    title: 'Analyse a symbol',
    description:
      "A structured look at one listed company: price action (adjusted), valuation, corporate actions, financials and recent announcements, from this service's tools.",
    arguments: [{ name: 'symbol', description: 'a listed symbol, e.g. ENGRO', required: true }],
  },
];

export function getPrompt(name: string, args: Record<string, string>): GetPromptResult {
  if (name !== 'analyse_symbol')
    throw invalidParams(`unknown prompt ${JSON.stringify(name)}; prompts/list gives analyse_symbol`);
  const symbol = (args.symbol ?? '').trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9.&-]{0,24}$/.test(symbol))
    throw invalidParams('the symbol argument of analyse_symbol must be a listed symbol, e.g. ENGRO');
  const text = [
    `Analyse ${symbol}, listed on the Pakistan Stock Exchange, using the psx-market-data tools:`,
    `1. get_quote for today's price, change, valuation (P/E, dividend yield, market cap) and 52-week range.`,
    `2. get_performance with dividends=true for total returns by period, volatility, drawdowns and beta against KSE100; get_history with adjusted=true and limit=250 for the last year's trend; mention flagged (is_anomaly) days.`,
    `3. get_corporate_actions for bonuses, splits, rights and dividends, and whether they are applied.`,
    `4. get_financials (annual, then quarterly) for revenue, profit and EPS trends.`,
    `5. get_announcements for recent results and board meetings.`,
    `6. get_profile for the sector, then screen_stocks with that sector, sorted by market_cap, to compare peers.`,
    'Report the figures with their as_of times, say what is missing, and keep facts apart from opinion.',
  ].join('\n');
  return {
    description: `Analysis of ${symbol}`,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
