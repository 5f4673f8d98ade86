// Failure injection: rules a test or the control API adds so the portal goes down, slows, answers an
// error status or garbage, or refuses the token, for matching paths and a number of times.

export type FailureMode = 'down' | 'slow' | 'status' | 'garbage' | 'refuse-token';

export interface FailureRule {
  mode: FailureMode;
  /** For `status`: the status to answer (500, 502, 503, 429, …); default 503. */
  status?: number;
  /** For `slow`: added delay per response; default 1000 ms. */
  delayMs?: number;
  /** Only requests whose path starts with this prefix (e.g. `/historical`); default every path. */
  path?: string;
  /** Apply to this many matching requests, then drop the rule; default unlimited. */
  times?: number;
}

const MODES: readonly FailureMode[] = ['down', 'slow', 'status', 'garbage', 'refuse-token'];

/** Validates a rule from the control API or a test; throws on anything malformed. */
export function parseFailureRule(input: unknown): FailureRule {
  if (typeof input !== 'object' || input === null) throw new Error('rule must be an object');
  const o = input as Record<string, unknown>;
  if (typeof o.mode !== 'string' || !MODES.includes(o.mode as FailureMode)) {
    throw new Error(`mode must be one of ${MODES.join(', ')}`);
  }
  const rule: FailureRule = { mode: o.mode as FailureMode };
  if (o.status !== undefined) {
    if (typeof o.status !== 'number' || !Number.isInteger(o.status) || o.status < 400 || o.status > 599) {
      throw new Error('status must be an integer 400-599');
    }
    rule.status = o.status;
  }
  if (o.delayMs !== undefined) {
    if (typeof o.delayMs !== 'number' || !(o.delayMs >= 0)) throw new Error('delayMs must be a number >= 0');
    rule.delayMs = o.delayMs;
  }
  if (o.path !== undefined && o.path !== null) {
    if (typeof o.path !== 'string' || !o.path.startsWith('/')) throw new Error('path must start with /');
    rule.path = o.path;
  }
  if (o.times !== undefined && o.times !== null) {
    if (typeof o.times !== 'number' || !Number.isInteger(o.times) || o.times < 1) {
      throw new Error('times must be a positive integer');
    }
    rule.times = o.times;
  }
  return rule;
}

/** The rules in force, the most recently added first to match. */
export class FailureRules {
  private rules: FailureRule[] = [];

  get size(): number {
    return this.rules.length;
  }

  add(rule: FailureRule): void {
    this.rules.push(rule);
  }

  clear(): void {
    this.rules = [];
  }

  /**
   * The most recent matching non-slow rule (`refuse-token` only for a data request), and the summed
   * delay of matching slow rules; each rule used counts one of its `times`.
   */
  apply(path: string, isData: boolean): { rule: FailureRule | null; delay: number } {
    let delay = 0;
    let rule: FailureRule | null = null;
    const used: FailureRule[] = [];
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const r = this.rules[i] as FailureRule;
      if (r.path !== undefined && !path.startsWith(r.path)) continue;
      if (r.mode === 'slow') {
        delay += r.delayMs ?? 1000;
        used.push(r);
      } else if (rule === null && (r.mode !== 'refuse-token' || isData)) {
        rule = r;
        used.push(r);
      }
    }
    for (const r of used) {
      if (r.times === undefined) continue;
      r.times -= 1;
      if (r.times <= 0) this.rules = this.rules.filter((x) => x !== r);
    }
    return { rule, delay };
  }
}
