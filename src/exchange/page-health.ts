// The drift alarm: the state of each portal page kind as this process last fetched it. The portal
// changes its pages without notice (a renamed header, a moved table); a parser then serves nulls
// or fails, and nothing else would tell an operator. State is per process: each replica reports
// the pages it fetched itself (with a shared Redis tier, a replica that reads another's copy does
// not fetch, and its state stays as it was).
import { collectFields, type FieldReport } from './parsers/columns.ts';
import type { PageKind } from './types.ts';

/**
 * `ok`: parsed with every expected field; `changed`: parsed, but a column or label its parser
 * expects was not found (served as null); `failing`: could not be parsed at all; `unknown`: not
 * fetched by this process yet.
 */
export type PageState = 'ok' | 'changed' | 'failing' | 'unknown';

export const PAGE_STATES: readonly PageState[] = ['ok', 'changed', 'failing', 'unknown'];

/** Every page kind the service reads, in the order /health/portal lists them. */
export const PAGE_KINDS: readonly PageKind[] = [
  'token',
  'symbols',
  'screener',
  'market-watch',
  'index-constituents',
  'index-levels',
  'sector-summary',
  'history',
  'reports',
  'company',
  'eod',
  'payouts',
  'intraday',
  'index-series',
  'market-payouts',
  'calendar',
  'announcements',
  'debt-market',
  'trading-board',
  'eligible-scrips',
  'daily-file',
];

export interface PageStatus {
  readonly page: PageKind;
  readonly state: PageState;
  /** Epoch ms of the last fetch that reached the parser (or was answered 4xx), else null. */
  readonly lastFetch: number | null;
  /** Epoch ms of the last fetch whose page parsed with every expected field, else null. */
  readonly lastOk: number | null;
  /** Expected columns or labels the last fetch did not find (changed, or failing for a missing required one). */
  readonly missingFields: readonly string[];
  /** Why, in words: the parser's failure for `failing`, the missing fields for `changed`; null when ok. */
  readonly detail: string | null;
}

/** One change of state, handed to the listener (the service logs it). */
export interface PageStateChange {
  readonly previous: PageStatus;
  readonly current: PageStatus;
}

export class PageHealth {
  private readonly statuses = new Map<PageKind, PageStatus>();

  constructor(
    private readonly now: () => number,
    private readonly onChange: (change: PageStateChange) => void = () => {},
  ) {
    for (const page of PAGE_KINDS) {
      this.statuses.set(page, {
        page,
        state: 'unknown',
        lastFetch: null,
        lastOk: null,
        missingFields: [],
        detail: null,
      });
    }
  }

  /**
   * Runs `parse` over a fetched page and records what it found; returns its value or rethrows its
   * error, so callers see exactly what the parser did.
   */
  parse<T>(page: PageKind, parse: () => T): { value: T; fields: FieldReport } {
    const outcome = collectFields(parse);
    if (!outcome.ok) {
      this.failed(page, describe(outcome.error), outcome.fields.missing);
      throw outcome.error;
    }
    this.parsed(page, outcome.fields.missing);
    return { value: outcome.value, fields: outcome.fields };
  }

  /**
   * A page that parsed; `missing` are the expected fields it lacked (none: ok). `detail` says more
   * than the fields' names where there is more to say (a daily file refused for them).
   */
  parsed(page: PageKind, missing: readonly string[], detail?: string): void {
    const at = this.now();
    const changed = missing.length > 0;
    this.set(page, {
      page,
      state: changed ? 'changed' : 'ok',
      lastFetch: at,
      lastOk: changed ? this.get(page).lastOk : at,
      missingFields: [...missing],
      detail: changed
        ? (detail ?? `not found on the page: ${missing.map((m) => `"${m}"`).join(', ')}`)
        : null,
    });
  }

  /** A page that could not be parsed (or was not there: a 4xx where it should be). */
  failed(page: PageKind, detail: string, missing: readonly string[] = []): void {
    this.set(page, {
      page,
      state: 'failing',
      lastFetch: this.now(),
      lastOk: this.get(page).lastOk,
      missingFields: [...missing],
      detail,
    });
  }

  get(page: PageKind): PageStatus {
    return this.statuses.get(page) as PageStatus;
  }

  /** Every page kind, in PAGE_KINDS order. */
  all(): PageStatus[] {
    return PAGE_KINDS.map((page) => this.get(page));
  }

  private set(page: PageKind, current: PageStatus): void {
    const previous = this.get(page);
    this.statuses.set(page, current);
    // The first good fetch is no news; every other change of state (or of what is missing) is.
    if (previous.state === 'unknown' && current.state === 'ok') return;
    if (previous.state === current.state && sameFields(previous.missingFields, current.missingFields)) return;
    this.onChange({ previous, current });
  }
}

function sameFields(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
