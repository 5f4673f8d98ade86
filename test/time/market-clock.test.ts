import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FreshnessKind, MarketClockConfig } from '../../src/time/market-clock.ts';
import {
  DEFAULT_MARKET_CLOCK_CONFIG,
  freshUntil,
  isMarketOpen,
  karachiDate,
  lastClosedDay,
  lastSessionClose,
  marketDataTime,
  nextSessionClose,
  nextSessionOpen,
} from '../../src/time/market-clock.ts';

// The pinned week: Mon 2026-10-05 … Fri 2026-10-09, Sat 10-10, Sun 10-11, Mon 10-12.
const DAYS = {
  mon: '2026-10-05',
  tue: '2026-10-06',
  wed: '2026-10-07',
  thu: '2026-10-08',
  fri: '2026-10-09',
};
const WEEKEND = { sat: '2026-10-10', sun: '2026-10-11', mon2: '2026-10-12', tue2: '2026-10-13' };
const D: Record<string, string> = { ...DAYS, ...WEEKEND };

/** `pk('fri 12:00')` or `pk('fri 12:00:30')`: an instant on the Karachi wall clock. */
function pk(spec: string): Date {
  const [day, time] = spec.split(' ') as [string, string];
  const hms = time.length === 5 ? `${time}:00` : time;
  return new Date(`${D[day] ?? day}T${hms}+05:00`);
}
const ms = (spec: string): number => pk(spec).getTime();
const MIN = 60_000;
const cfg: MarketClockConfig = { ...DEFAULT_MARKET_CLOCK_CONFIG };
const plain: MarketClockConfig = { ...cfg, followMarketClock: false };

describe('isMarketOpen', () => {
  const cases: readonly [at: string, open: boolean][] = [
    ['mon 09:29:59', false],
    ['mon 09:30', true],
    ['mon 15:29:59', true],
    ['mon 15:30', false],
    ['mon 16:45', false],
    ['thu 12:00', true],
    ['fri 09:14:59', false],
    ['fri 09:15', true],
    ['fri 11:59:59', true],
    ['fri 12:00', false],
    ['fri 13:15', false],
    ['fri 14:29:59', false],
    ['fri 14:30', true],
    ['fri 16:29:59', true],
    ['fri 16:30', false],
    ['sat 11:00', false],
    ['sun 11:00', false],
  ];
  for (const [at, open] of cases) {
    it(`${at} → ${open ? 'open' : 'closed'}`, () => assert.equal(isMarketOpen(pk(at)), open));
  }

  it('uses UTC+5: 04:30Z on a Monday is the open', () => {
    assert.equal(isMarketOpen(new Date('2026-10-05T04:29:59Z')), false);
    assert.equal(isMarketOpen(new Date('2026-10-05T04:30:00Z')), true);
  });

  it('accepts epoch milliseconds', () => assert.equal(isMarketOpen(ms('mon 10:00')), true));
  it('rejects an invalid Date', () => assert.throws(() => isMarketOpen(new Date('nope')), RangeError));
});

describe('nextSessionOpen', () => {
  const cases: readonly [at: string, next: string, why: string][] = [
    ['mon 08:00', 'mon 09:30', 'before the open'],
    ['mon 09:29:59', 'mon 09:30', 'just before the open'],
    ['mon 09:30', 'tue 09:30', 'strictly after: the open itself has passed'],
    ['mon 12:00', 'tue 09:30', 'during the session'],
    ['thu 16:00', 'fri 09:15', 'Thursday after the close → Friday’s earlier open'],
    ['fri 10:00', 'fri 14:30', 'Friday morning session → afternoon session'],
    ['fri 12:00', 'fri 14:30', 'Friday break begins'],
    ['fri 13:00', 'fri 14:30', 'inside Friday’s break'],
    ['fri 17:00', 'mon2 09:30', 'Friday after the close → Monday'],
    ['sat 10:00', 'mon2 09:30', 'Saturday'],
    ['sun 23:59', 'mon2 09:30', 'late Sunday'],
  ];
  for (const [at, next, why] of cases) {
    it(`${at} → ${next} (${why})`, () => assert.equal(nextSessionOpen(pk(at)), ms(next)));
  }

  it('handles the Karachi date running ahead of UTC (Sat 04:00 PKT is Fri 23:00Z)', () => {
    assert.equal(nextSessionOpen(new Date('2026-10-09T23:00:00Z')), ms('mon2 09:30'));
  });
});

describe('nextSessionClose', () => {
  const cases: readonly [at: string, next: string][] = [
    ['mon 08:00', 'mon 15:30'],
    ['mon 15:29', 'mon 15:30'],
    ['mon 15:30', 'tue 15:30'],
    ['thu 16:00', 'fri 16:30'],
    ['fri 10:00', 'fri 16:30'],
    ['fri 13:00', 'fri 16:30'],
    ['fri 16:30', 'mon2 15:30'],
    ['sat 12:00', 'mon2 15:30'],
  ];
  for (const [at, next] of cases) {
    it(`${at} → ${next}`, () => assert.equal(nextSessionClose(pk(at)), ms(next)));
  }
});

describe('karachiDate', () => {
  it('rolls over at 19:00Z', () => {
    assert.equal(karachiDate(new Date('2026-10-09T18:59:59.999Z')), '2026-10-09');
    assert.equal(karachiDate(new Date('2026-10-09T19:00:00Z')), '2026-10-10');
    assert.equal(karachiDate(new Date('2024-02-28T19:00:00Z')), '2024-02-29');
    assert.equal(karachiDate(new Date('2026-12-31T19:00:00Z')), '2027-01-01');
  });
});

describe('freshUntil: intraday', () => {
  const cases: readonly [fetched: string, until: string, why: string][] = [
    ['mon 10:00', 'mon 10:15', 'TTL during the session'],
    ['mon 15:20', 'mon 15:35', 'the TTL runs on past the close: post-close prints'],
    ['mon 16:50', 'mon 17:00', 'cut at the 17:00 grace'],
    ['mon 17:00', 'tue 09:30', 'settled: until the next open'],
    ['mon 08:00', 'mon 09:30', 'before the open'],
    ['mon 09:29', 'mon 09:30', 'just before the open'],
    ['fri 11:50', 'fri 12:00', 'cut at Friday’s first close'],
    ['fri 12:00', 'fri 14:30', 'Friday break'],
    ['fri 13:00', 'fri 14:30', 'Friday break'],
    ['fri 14:30', 'fri 14:45', 'Friday afternoon session'],
    ['fri 16:40', 'fri 16:55', 'Friday post-close prints'],
    ['fri 16:50', 'fri 17:00', 'cut at the grace'],
    ['fri 17:30', 'mon2 09:30', 'Friday after the close → Monday'],
    ['thu 17:00', 'fri 09:15', 'Thursday after the close → Friday'],
    ['sat 12:00', 'mon2 09:30', 'weekend'],
  ];
  for (const [fetched, until, why] of cases) {
    it(`${fetched} → ${until} (${why})`, () =>
      assert.equal(freshUntil('intraday', pk(fetched), cfg), ms(until)));
  }

  it('never outlives the live window, whatever the TTL', () => {
    assert.equal(freshUntil('intraday', pk('mon 16:30'), { ...cfg, intradayTtlSec: 3600 }), ms('mon 17:00'));
  });

  it('a zero TTL means always stale in session', () => {
    assert.equal(freshUntil('intraday', pk('mon 10:00'), { ...cfg, intradayTtlSec: 0 }), ms('mon 10:00'));
  });
});

describe('freshUntil: symbols and reports', () => {
  const cases: readonly [fetched: string, until: string][] = [
    ['mon 10:00', 'tue 09:30'],
    ['mon 08:00', 'mon 09:30'],
    ['fri 10:00', 'fri 14:30'],
    ['sat 10:00', 'mon2 09:30'],
  ];
  for (const [fetched, until] of cases) {
    it(`symbols ${fetched} → ${until}`, () =>
      assert.equal(freshUntil('symbols', pk(fetched), cfg), ms(until)));
  }

  it('reports last reportsTtlSec around the clock', () => {
    for (const at of ['mon 10:00', 'sat 03:00']) {
      assert.equal(freshUntil('reports', pk(at), cfg), ms(at) + 6 * 60 * MIN);
    }
  });
});

describe('freshUntil: history', () => {
  const cases: readonly [fetched: string, newest: string | undefined, until: string, why: string][] = [
    ['mon 10:00', undefined, 'mon 17:00', 'no rows known: the next settle'],
    ['mon 17:00', undefined, 'tue 17:00', 'no rows known, after the grace'],
    ['sat 10:00', undefined, 'mon2 17:00', 'no rows known, weekend'],
    ['mon 10:00', '2026-10-02', 'mon 17:00', 'newest is the last trading day: until today settles'],
    ['wed 17:30', DAYS.wed, 'thu 17:00', 'today’s row after the grace: the next trading day'],
    ['fri 17:30', DAYS.fri, 'mon2 17:00', 'Friday’s row after the grace: Monday'],
    ['sat 10:00', DAYS.fri, 'mon2 17:00', 'weekend, complete'],
    ['wed 11:00', DAYS.wed, 'wed 11:30', 'a live row for today: the history TTL'],
    ['wed 16:45', DAYS.wed, 'wed 17:00', 'a live row for today, cut at the grace'],
    ['wed 16:00', DAYS.tue, 'wed 17:00', 'after the close, before the grace: today’s row is not due yet'],
    ['wed 17:30', DAYS.tue, 'wed 18:00', 'today’s row is due but missing: poll'],
    ['thu 09:00', DAYS.tue, 'thu 09:30', 'still missing: poll, at most until the open'],
    ['thu 09:30', DAYS.tue, 'thu 17:00', 'missing past the next open: a holiday or no trades, stop polling'],
    ['sat 10:00', DAYS.thu, 'sat 10:30', 'Friday’s row missing on Saturday: poll'],
    ['mon2 10:00', DAYS.thu, 'mon2 17:00', 'Friday’s row never came'],
    ['wed 11:00', '2020-01-31', 'wed 17:00', 'a closed range in the past'],
    ['sat 10:00', WEEKEND.mon2, 'mon2 17:00', 'a row from the future (clock skew)'],
  ];
  for (const [fetched, newest, until, why] of cases) {
    it(`${fetched}, newest ${newest ?? 'none'} → ${until} (${why})`, () => {
      assert.equal(freshUntil('history', pk(fetched), cfg, newest), ms(until));
    });
  }

  it('rejects a malformed newestRowDate', () => {
    assert.throws(() => freshUntil('history', pk('mon 10:00'), cfg, '05/10/2026'), RangeError);
  });
});

describe('freshUntil: without the market clock', () => {
  const cases: readonly [kind: FreshnessKind, ttlMin: number][] = [
    ['intraday', 15],
    ['symbols', 15],
    ['history', 30],
    ['reports', 360],
  ];
  for (const [kind, ttlMin] of cases) {
    it(`${kind}: ${ttlMin} min at any hour`, () => {
      for (const at of ['mon 10:00', 'fri 13:00', 'sat 12:00', 'wed 16:59']) {
        assert.equal(freshUntil(kind, pk(at), plain, DAYS.tue), ms(at) + ttlMin * MIN);
      }
    });
  }

  it('rejects a negative or non-finite TTL', () => {
    assert.throws(() => freshUntil('intraday', pk('mon 10:00'), { ...cfg, intradayTtlSec: -1 }), RangeError);
    assert.throws(
      () => freshUntil('reports', pk('mon 10:00'), { ...cfg, historyTtlSec: Number.NaN }),
      RangeError,
    );
  });
});

// Pakistan last observed DST in 2009; Intl's tz database is an independent oracle from 2010 on.
const instant = fc.integer({ min: Date.UTC(2010, 0, 1), max: Date.UTC(2040, 0, 1) });
const karachiParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Karachi',
  weekday: 'short',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function oracle(t: number): { date: string; weekday: string; minute: number } {
  const p = Object.fromEntries(karachiParts.formatToParts(t).map((x) => [x.type, x.value]));
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    weekday: p.weekday as string,
    minute: Number(p.hour) * 60 + Number(p.minute),
  };
}

function oracleOpen(t: number): boolean {
  const { weekday, minute } = oracle(t);
  const within = (h1: number, m1: number, h2: number, m2: number): boolean =>
    minute >= h1 * 60 + m1 && minute < h2 * 60 + m2;
  if (weekday === 'Fri') return within(9, 15, 12, 0) || within(14, 30, 16, 30);
  if (weekday === 'Sat' || weekday === 'Sun') return false;
  return within(9, 30, 15, 30);
}

describe('market clock: properties', () => {
  it('karachiDate and isMarketOpen agree with the tz database', () => {
    fc.assert(
      fc.property(instant, (t) => {
        assert.equal(karachiDate(t), oracle(t).date);
        assert.equal(isMarketOpen(t), oracleOpen(t));
      }),
    );
  });

  it('nextSessionOpen is later, opens the market, and nothing opens in between', () => {
    fc.assert(
      fc.property(instant, fc.double({ min: 0, max: 1, noNaN: true }), (t, frac) => {
        const open = nextSessionOpen(t);
        assert.ok(open > t);
        assert.ok(isMarketOpen(open) && !isMarketOpen(open - 1));
        const between = Math.floor(t + (open - 1 - t) * frac);
        if (between > t && !isMarketOpen(t)) assert.equal(isMarketOpen(between), false);
      }),
    );
  });

  it('nextSessionClose is later and ends a session', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const close = nextSessionClose(t);
        assert.ok(close > t);
        assert.ok(isMarketOpen(close - 1) && !isMarketOpen(close));
        assert.ok(close - t <= 4 * 86_400_000, 'at most a long weekend away');
      }),
    );
  });

  it('freshUntil is never before fetchedAt, and bounded', () => {
    const kind = fc.constantFrom<FreshnessKind>('intraday', 'symbols', 'reports', 'history');
    const newest = fc.option(fc.integer({ min: -10, max: 2 }), { nil: undefined });
    fc.assert(
      fc.property(kind, instant, fc.boolean(), newest, (k, t, follow, offset) => {
        const newestRowDate = offset === undefined ? undefined : karachiDate(t + offset * 86_400_000);
        const until = freshUntil(k, t, { ...cfg, followMarketClock: follow }, newestRowDate);
        assert.ok(until >= t);
        assert.ok(until - t <= 4 * 86_400_000, `${k} ${until - t}`);
        if (k === 'intraday' && isMarketOpen(t)) assert.ok(until <= t + cfg.intradayTtlSec * 1000);
      }),
    );
  });
});

describe('lastSessionClose and marketDataTime', () => {
  const cases: readonly [at: string, close: string][] = [
    ['thu 02:17', 'wed 15:30'],
    ['mon 09:29', '2026-10-02 16:30'],
    ['mon 15:30', 'mon 15:30'],
    ['mon 20:00', 'mon 15:30'],
    ['fri 12:00', 'fri 12:00'],
    ['fri 13:05', 'fri 12:00'],
    ['fri 17:00', 'fri 16:30'],
    ['sat 11:00', 'fri 16:30'],
    ['sun 23:59', 'fri 16:30'],
  ];
  for (const [at, close] of cases) {
    it(`${at} -> ${close}`, () => {
      assert.equal(lastSessionClose(pk(at)), ms(close));
      assert.equal(marketDataTime(pk(at)), ms(close), 'closed: the last close');
    });
  }

  it('during a session the data is as of its fetch', () => {
    for (const at of ['mon 09:30', 'wed 11:11:11', 'fri 09:15', 'fri 15:00', 'fri 16:29:59']) {
      assert.equal(marketDataTime(pk(at)), ms(at), at);
    }
  });

  it('is never after the instant, and ends a session', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const close = lastSessionClose(t);
        assert.ok(close <= t);
        assert.ok(isMarketOpen(close - 1) && !isMarketOpen(close));
        const data = marketDataTime(t);
        assert.ok(data <= t);
        if (!isMarketOpen(t)) assert.equal(data, close);
        else assert.equal(data, t);
      }),
    );
  });
});

describe('lastClosedDay: the newest day a complete daily bar can exist for', () => {
  const cases: readonly [at: string, day: string][] = [
    ['mon 09:29', '2026-10-02'],
    ['mon 15:29:59', '2026-10-02'],
    ['mon 15:30', D.mon!],
    ['thu 02:17', D.wed!],
    ['fri 12:00', D.thu!],
    ['fri 13:05', D.thu!],
    ['fri 16:29:59', D.thu!],
    ['fri 16:30', D.fri!],
    ['sun 23:59', D.fri!],
  ];
  for (const [at, day] of cases) {
    it(`${at} -> ${day}`, () => assert.equal(lastClosedDay(pk(at)), day));
  }

  it('is the day of a last close at or before the instant, whose final session has ended', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const day = lastClosedDay(t);
        assert.ok(day <= karachiDate(t));
        const close = nextSessionClose(new Date(`${day}T00:00:00+05:00`));
        assert.ok(close <= t, `${day} closes at ${close}, after ${t}`);
        assert.equal(karachiDate(close), day);
      }),
    );
  });
});
