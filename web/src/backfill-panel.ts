// The archive's backfill on the market view: how far the archiver is (symbols done of those
// listed, as a progress bar), what the archive holds, the rate, the time left and the last error,
// from GET /archive/status. It sits at the end of the view, so appearing, changing or collapsing
// never moves what the reader is looking at. The status is a counted API request: asked once per
// page load when the archive is off (and never again), once a visit after the backfill is done,
// and every POLL_MS while a backfill runs, the view is shown and the tab is visible (a return to
// the view within a poll shows what the page knows and asks when the poll is due); a refusal
// (429, at its Retry-After) or an unavailable archive (503) stretches the wait.
import { api, NotAvailable, SERVICE_BUDGET, ServiceError, viaClient, type Fetched } from './api.ts';
import type { components } from 'psx-market-data-client';
import { h, replace } from './dom.ts';
import { DASH, fmtWhen, fmtWhole } from './format.ts';
import { inWords } from './load.ts';

type ArchiveStatus = components['schemas']['ArchiveStatus'];

/** A running backfill is asked about this often: progress moves by a symbol every few seconds. */
const POLL_MS = 20_000;
/** A finished backfill's quiet line is read again at most this often (a visit to the view). */
const DONE_TTL_MS = 10 * 60_000;
/** The longest wait after failures (503 while the store is down, the service unreachable). */
const MAX_WAIT_MS = 5 * 60_000;

/** What this page load learnt: `off` and `absent` hold for the page's life. */
let known: { status: ArchiveStatus; asOf: string | null; at: number } | 'off' | 'absent' | undefined;

/**
 * The question in flight, shared: a view left and shown again before the answer came waits for it
 * instead of asking again.
 */
let pending: Promise<Fetched<ArchiveStatus>> | undefined;

const PHASE_TEXT: Record<ArchiveStatus['archiver'], string> = {
  off: 'off',
  starting: 'starting',
  backfill: 'backfilling',
  idle: 'up to date',
  backoff: 'paused: the exchange refused or failed a fetch, and it tries again shortly',
  follower: 'another replica is archiving',
  stopped: 'stopped',
};

/** What the archiver is doing, in words; a pause for the service's own budget is not the exchange's doing. */
function phaseText(s: ArchiveStatus): string {
  if (s.archiver === 'backoff' && s.last_error && SERVICE_BUDGET.test(s.last_error))
    return 'paused: readers’ pages have the service’s exchange fetches this minute, and it goes on after them';
  return PHASE_TEXT[s.archiver];
}

/** A backfill is under way (or about to be): the full panel, and the polling. */
function isRunning(s: ArchiveStatus): boolean {
  if (s.archiver !== 'starting' && s.archiver !== 'backfill' && s.archiver !== 'backoff') return false;
  return s.symbols_total === null || s.symbols_done < s.symbols_total;
}

/**
 * Mounts the panel in `section` (hidden until there is something to say) and starts asking;
 * returns the stop, run when the view is left.
 */
export function startBackfillPanel(section: HTMLElement): () => void {
  section.hidden = true;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let parts: Parts | undefined;

  /** A question that fell due while the tab was hidden: asked when it is looked at again. */
  let due = false;

  const schedule = (ms: number): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (document.visibilityState === 'visible') void ask();
      else due = true;
    }, ms);
  };
  const onVisible = (): void => {
    if (stopped || !due || document.visibilityState !== 'visible') return;
    due = false;
    void ask();
  };
  document.addEventListener('visibilitychange', onVisible);

  const show = (status: ArchiveStatus, asOf: string | null): void => {
    if (status.archiver === 'off') {
      section.hidden = true;
      return;
    }
    parts ??= build(section);
    draw(parts, status, asOf);
    section.hidden = false;
  };

  const ask = async (): Promise<void> => {
    clearTimeout(timer);
    let answer: Fetched<ArchiveStatus>;
    try {
      pending ??= viaClient<ArchiveStatus>(api.GET('/archive/status')).finally(() => (pending = undefined));
      answer = await pending;
    } catch (err) {
      if (stopped) return;
      if (err instanceof NotAvailable) {
        known = 'absent';
        return;
      }
      failures += 1;
      const wait = waitAfter(err, failures);
      if (parts)
        parts.note.textContent = `Could not refresh the progress; asking again in ${inWords(Math.ceil(wait / 1000))}.`;
      return schedule(wait);
    }
    failures = 0;
    const status = answer.data;
    known = status.archiver === 'off' ? 'off' : { status, asOf: answer.asOf, at: Date.now() };
    if (stopped) return;
    show(status, answer.asOf);
    if (isRunning(status)) schedule(POLL_MS);
  };

  if (known === 'off' || known === 'absent') return () => {};
  const age = known === undefined ? Infinity : Date.now() - known.at;
  if (known !== undefined && !isRunning(known.status) && age < DONE_TTL_MS) {
    show(known.status, known.asOf);
  } else if (known !== undefined && isRunning(known.status) && age < POLL_MS) {
    // Back on the view within a poll: what the page knows, and the next question when it is due.
    show(known.status, known.asOf);
    schedule(POLL_MS - age);
  } else if (document.visibilityState === 'visible') {
    void ask();
  } else {
    // Opened in a background tab: the first question waits until the tab is looked at.
    due = true;
  }

  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/** How long to wait after the `failures`-th failure in a row: Retry-After when the service said. */
function waitAfter(err: unknown, failures: number): number {
  const said = err instanceof ServiceError ? err.retryAfterSec : null;
  const doubled = Math.min(POLL_MS * 2 ** failures, MAX_WAIT_MS);
  return Math.max(doubled, (said ?? 0) * 1000);
}

interface Parts {
  summary: HTMLElement;
  bar: HTMLElement;
  fill: HTMLElement;
  details: HTMLElement;
  note: HTMLElement;
}

function build(section: HTMLElement): Parts {
  const summary = h('p', { class: 'backfill-summary', id: 'backfill-summary' });
  const fill = h('span', { class: 'backfill-fill' });
  const bar = h(
    'div',
    {
      class: 'backfill-bar',
      role: 'progressbar',
      'aria-labelledby': 'backfill-heading',
      'aria-describedby': 'backfill-summary',
      'aria-valuemin': 0,
    },
    fill,
  );
  const details = h('dl', { class: 'facts backfill-facts' });
  const note = h('p', { class: 'backfill-note', role: 'status' });
  replace(
    section,
    h('h2', { id: 'backfill-heading' }, 'Archive backfill'),
    h('div', { class: 'panel backfill-panel', id: 'backfill-panel' }, summary, bar, details, note),
  );
  return { summary, bar, fill, details, note };
}

function draw(p: Parts, s: ArchiveStatus, asOf: string | null): void {
  const running = isRunning(s);
  const total = s.symbols_total;
  const pct = total ? Math.min(100, (s.symbols_done / total) * 100) : null;
  p.summary.textContent =
    total === null
      ? `${fmtWhole(s.symbols_done)} symbols archived; ${phaseText(s)}.`
      : `${fmtWhole(s.symbols_done)} of ${fmtWhole(total)} symbols (${Math.floor(pct ?? 0)}%); ${phaseText(s)}.`;
  p.note.textContent = '';
  // Done or not running: one quiet line (the bar and the figures are for a backfill under way).
  p.bar.parentElement!.classList.toggle('quiet', !running);
  p.bar.hidden = !running;
  p.details.hidden = !running;
  p.bar.dataset.phase = s.archiver;
  if (total === null) {
    p.bar.removeAttribute('aria-valuenow');
    p.bar.removeAttribute('aria-valuemax');
    p.bar.setAttribute('aria-valuetext', 'listing the symbols');
    p.fill.style.width = '0%';
  } else {
    p.bar.setAttribute('aria-valuemax', String(total));
    p.bar.setAttribute('aria-valuenow', String(Math.min(s.symbols_done, total)));
    p.bar.setAttribute('aria-valuetext', `${s.symbols_done} of ${total} symbols`);
    p.fill.style.width = `${pct}%`;
  }
  if (!running) {
    p.summary.textContent = `Archive: ${fmtWhole(s.symbols_done)}${total === null ? '' : ` of ${fmtWhole(total)}`} symbols, ${fmtWhole(s.rows)} daily bars over ${fmtWhole(s.days)} trading days; ${quietPhase(s)}${s.last_error && s.archiver === 'backoff' ? ` (last error: ${s.last_error})` : ''}. As of ${fmtWhen(asOf)}.`;
    return;
  }
  const fact = (name: string, value: string, wide = false): HTMLElement =>
    h('div', { class: wide ? 'wide' : undefined, 'data-fact': name }, h('dt', {}, name), h('dd', {}, value));
  replace(
    p.details,
    fact('Daily bars', fmtWhole(s.rows)),
    fact(
      'Trading days',
      s.days === 0 ? '0' : `${fmtWhole(s.days)} (${s.first_date ?? DASH} to ${s.last_date ?? DASH})`,
    ),
    fact('Rate', s.rate_per_minute === null ? DASH : `${fmtRate(s.rate_per_minute)} symbols a minute`),
    fact('Time left', s.eta_seconds === null ? DASH : `about ${duration(s.eta_seconds)}`),
    s.actions_left ? fact('Corporate actions', `${fmtWhole(s.actions_left)} symbols to go`) : null,
    s.last_error
      ? fact('Last error', `${s.last_error}${s.last_error_at ? ` (${fmtWhen(s.last_error_at)})` : ''}`, true)
      : null,
    fact('As of', `${fmtWhen(asOf)}; asks again every ${POLL_MS / 1000} seconds`, true),
  );
}

/** The quiet line's word for the archiver: every symbol's history is in, whatever it does next. */
const quietPhase = (s: ArchiveStatus): string =>
  s.archiver === 'backfill' || s.archiver === 'starting' || s.archiver === 'backoff'
    ? 'every history backfilled'
    : phaseText(s);

const fmtRate = (n: number): string => (n >= 10 ? fmtWhole(n) : String(Math.round(n * 10) / 10));

/** `3 h 20 min`, `12 min`, `under a minute`: an estimate, not a countdown. */
function duration(seconds: number): string {
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
