// Which trading day the portal's clock shows, and the `As of` time of its boards on that day.
import { karachiDate, sessionsOfDay } from '../../src/time/market-clock.ts';
import { AS_OF_DATE, defaultAsOfTime } from './dataset.ts';

/** Fri 2026-11-20 16:35 Karachi (AS_OF_DATE, after the close): the day every test is written for. */
export const DEFAULT_CLOCK_MS = Date.parse(`${AS_OF_DATE}T${defaultAsOfTime(AS_OF_DATE)}:00+05:00`);

/**
 * The trading day a clock's market shows (the day of the latest session open at or before it) and
 * the boards' `As of` time on it: the clock's minute during the day, five minutes past the last
 * close once it has closed.
 */
export function marketDayOf(nowMs: number): { date: string; time: string } {
  const lastOpen = previousSessionOpen(nowMs);
  const date = karachiDate(lastOpen);
  const closes = sessionsOfDay(lastOpen);
  const lastClose = closes[closes.length - 1]!.close;
  if (nowMs >= lastClose) return { date, time: defaultAsOfTime(date) };
  const minutes = Math.floor((nowMs + 5 * 3_600_000 - Date.parse(`${date}T00:00:00Z`)) / 60_000);
  return {
    date,
    time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
  };
}

/** The latest session open at or before `ms`. */
function previousSessionOpen(ms: number): number {
  for (let day = ms; ; day -= 86_400_000) {
    const opens = sessionsOfDay(day)
      .map((s) => s.open)
      .filter((open) => open <= ms);
    if (opens.length > 0) return opens[opens.length - 1]!;
  }
}
