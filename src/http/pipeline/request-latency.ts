// The request latency histogram, as a prom-client metric of its own. prom-client's Histogram
// checks, converts and hashes the labels on every observe(), even on a bound child: a measurable
// share of a cached answer's cost (bench/README.md, where a standard Histogram with bound children
// is measured against this one). Here a (route, method) pair is resolved to its bucket counts once,
// and observing is a bucket search and three additions. The exposition is a Histogram's (cumulative
// `le` buckets, +Inf, _sum, _count), with `le` after the route and method.
// prom-client has no public way to give a Histogram counts kept elsewhere (its own are private, and
// its registry reads them through an undocumented method before `get()`, so a subclass overriding
// `get()` would not be read), so this is a collector of its own, added with the registry's public
// `registerMetric`, which reads what a metric object has: name, help, type, aggregator and `get()`.
import type { Metric, Registry } from 'prom-client';

interface Series {
  labels: { route: string; method: string };
  /** Per bucket, not cumulative; the last slot is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** A handle on one series (opaque outside this file). */
export type LatencySeries = object;

interface ValuePair {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

export class RequestLatency {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of one (route, method) pair; callers keep it and hand it to `observe`. */
  seriesOf(route: string, method: string): LatencySeries {
    const key = `${method} ${route}`;
    let s = this.series.get(key);
    if (s === undefined) {
      s = { labels: { route, method }, counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    return s;
  }

  observe(s: LatencySeries, seconds: number): void {
    let i = 0;
    while (i < this.buckets.length && seconds > (this.buckets[i] as number)) i++;
    (s as Series).counts[i]! += 1;
    (s as Series).sum += seconds;
    (s as Series).count += 1;
  }

  /** What prom-client's registry reads when it is scraped. */
  get(): { name: string; help: string; type: string; aggregator: string; values: ValuePair[] } {
    const values: ValuePair[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (const [i, le] of this.buckets.entries()) {
        cumulative += s.counts[i] as number;
        values.push({ labels: { ...s.labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}
