// The analyses are loaded at the first request that needs one: most deployments serve quotes and
// histories and never ask for them, and their modules (with src/analytics) need not be read at
// start. The request schemas take their constants from ../models/analytics.ts and
// src/analytics/params.ts instead. Loaded once: the promise is kept.
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { MemberSeriesSource } from './member-series.ts';

const load = () =>
  Promise.all([
    import('./performance.ts'),
    import('./rankings.ts'),
    import('./indicators.ts'),
    import('./member-series.ts'),
  ]).then(([performance, rankings, indicators, memberSeries]) => ({
    ...performance,
    ...rankings,
    ...indicators,
    ...memberSeries,
  }));

export type AnalyticsModules = Awaited<ReturnType<typeof load>>;

let modules: Promise<AnalyticsModules> | undefined;

export function analyticsModules(): Promise<AnalyticsModules> {
  modules ??= load();
  return modules;
}

/** `historySource(datasets)` (member-series.ts), made when its first series is asked for. */
export function lazyHistorySource(datasets: Datasets): MemberSeriesSource {
  let source: MemberSeriesSource | undefined;
  return {
    async load(symbols: readonly string[], ctx: RequestContext, period) {
      source ??= (await analyticsModules()).historySource(datasets);
      return source.load(symbols, ctx, period);
    },
  };
}
