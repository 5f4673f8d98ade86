// The market view's date picker: a native date input (keyboard, screen readers and phones get
// their own calendar) bounded by the first and last closing file the archive holds. The bounds
// come from GET /archive/status, asked only when the reader opens the picker (or on a past day's
// view, which is already the archive's): the live view's first load asks nothing for it. The
// chosen day goes into the address (#/market?date=2015-03-02), so it can be shared and reloaded.
import { NotAvailable } from './api.ts';
import { archiveStatusOnce, type ArchiveStatus, type DailyMarket } from './data.ts';
import { h, replace } from './dom.ts';
import { fmtDay } from './format.ts';
import { navigate } from './router.ts';

/** The exchange's first closing file (upstream.md §7): no day before it can be asked for. */
export const FIRST_FILE_DAY = '2013-11-04';

/** The address of `date`'s market (`market` other than equities only when chosen). */
export function dayHash(date: string, market: DailyMarket = 'equities'): string {
  return `#/market?date=${date}${market === 'equities' ? '' : `&market=${market}`}`;
}

export interface DayPickerOptions {
  /** The day shown (a past day's view), or undefined on the live view. */
  date?: string;
  market?: DailyMarket;
  /** Open at once (a past day's view), or behind a "Another day" button (the live view). */
  open: boolean;
}

/** The picker; on the live view a button that opens it. */
export function dayPicker(opts: DayPickerOptions): HTMLElement {
  const note = h('p', { class: 'day-note', id: 'day-note', 'aria-live': 'polite' });
  const input = h('input', {
    type: 'date',
    id: 'day-input',
    name: 'date',
    required: true,
    min: FIRST_FILE_DAY,
    value: opts.date ?? '',
    'aria-describedby': 'day-note',
  });
  const show = h('button', { type: 'submit' }, 'Show day');
  const form = h(
    'form',
    {
      class: 'day-form',
      id: 'day-form',
      'aria-label': 'Market on a past day',
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (!input.value || !form.reportValidity()) return;
        navigate(dayHash(input.value, opts.market));
      },
    },
    h('label', { for: 'day-input' }, 'Market on'),
    input,
    show,
    opts.date ? h('a', { href: '#/', class: 'today-link', id: 'today-link' }, 'Back to today (live)') : null,
  );
  const box = h('div', { class: 'day-picker', id: 'day-picker' }, form, note);

  let bounded = false;
  const bound = async (): Promise<void> => {
    if (bounded) return;
    bounded = true;
    let status: ArchiveStatus;
    try {
      status = (await archiveStatusOnce()).data;
    } catch (err) {
      bounded = false;
      // Without bounds the input still works: the service says when a day is not held.
      if (!(err instanceof NotAvailable)) replace(note, 'Could not ask which days the archive holds.');
      else unavailable();
      return;
    }
    if (status.archiver === 'off') return unavailable();
    const first = status.files_first_date;
    const last = status.files_last_date;
    if (first === null || last === null) {
      replace(note, 'The archive holds no past day yet; it is being filled (its progress is at the bottom).');
      return;
    }
    input.min = first;
    input.max = last;
    // The calendar opens at the archive's newest day rather than at today's month, which may be beyond it.
    if (!input.value) input.value = last;
    replace(note, `The archive holds every trading day from ${fmtDay(first)} to ${fmtDay(last)}.`);
  };
  const unavailable = (): void => {
    input.disabled = true;
    show.disabled = true;
    replace(
      note,
      'Past days need the service’s archive, which this service does not keep; only today’s market is shown.',
    );
  };

  if (opts.open) {
    void bound();
    return box;
  }
  form.hidden = true;
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'day-toggle',
      id: 'day-toggle',
      'aria-expanded': 'false',
      'aria-controls': 'day-form',
      onclick: () => {
        const opening = form.hidden;
        form.hidden = !opening;
        toggle.setAttribute('aria-expanded', String(opening));
        if (!opening) return replace(note);
        input.focus();
        void bound();
      },
    },
    'Another day…',
  );
  box.prepend(toggle);
  return box;
}
