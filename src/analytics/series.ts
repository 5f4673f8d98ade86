// The inputs of every computation: daily rows oldest first, read-only. A row without a close is not
// a trading day of the series (callers drop it before computing).

export interface Bar {
  readonly date: string;
  readonly open: number | null;
  readonly high: number | null;
  readonly low: number | null;
  readonly close: number;
  readonly volume: number | null;
}

/** Rows with a close, in order (the series every formula reads). */
export function withClose<R extends { close: number | null }>(rows: readonly R[]): (R & { close: number })[] {
  return rows.filter((r): r is R & { close: number } => r.close !== null && Number.isFinite(r.close));
}
