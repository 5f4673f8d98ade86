// V8 runs new code in its interpreter until it has seen enough of it to optimise. In a process
// that has just started, the first large history pages parse an order of magnitude slower than
// later ones (bench/README.md). Without a warm-up the first callers
// after a start or deploy pay that, a cold burst's thousand waiters included. Parsing
// synthetic pages in the portal's structure as soon as the server listens moves the cost to
// start-up: a cold request waits for its portal page far longer than the warm-up takes.
import { performance } from 'node:perf_hooks';
import { parseHistory } from './history.ts';

/** A `POST /historical` page of `rows` days, in the structure the portal serves. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function syntheticHistoryPage(rows: number): string {
  const parts = [
    '<!-- .note div * Prices are not adjusted for corporate actions.-->' +
      '<div class="tbl__wrapper tbl__wrapper--scrollable"><table class="tbl" id="historicalTable" data-page-length="25">' +
      '<thead class="tbl__head"><tr><th data-name="time" data-type="string">DATE </th>' +
      '<th class="right" data-name="open" data-type="number">OPEN</th>' +
      '<th class="right" data-name="high" data-type="number">HIGH</th>' +
      '<th class="right" data-name="low" data-type="number">LOW</th>' +
      '<th class="right" data-name="close" data-type="number">CLOSE</th>' +
      '<th class="right" data-name="volume" data-type="number">VOLUME</th></tr></thead><tbody class="tbl__body">',
  ];
  // 16:00 Karachi (11:00 UTC) on consecutive days back from 2026-01-02, as the portal's data-order.
  const newest = Date.UTC(2026, 0, 2, 11) / 1000;
  for (let i = 0; i < rows; i++) {
    const epoch = newest - i * 86_400;
    const date = new Date(epoch * 1000);
    const day = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
    const cells = [0, 3, 5, 2].map(
      (k) => `<td class="right">${(400 + ((i * 7 + k * 13) % 97) * 1.37).toFixed(2)}</td>`,
    );
    // Thousands separators as the portal prints them (toLocaleString would cost more than the parse).
    const volume = String(1_000_000 + ((i * 7919) % 4_000_000)).replace(/\B(?=(\d{3})+$)/g, ',');
    parts.push(
      `<tr><td data-order="${epoch}">${day}</td>${cells.join('')}<td class="right">${volume}</td></tr>`,
    );
  }
  parts.push('</tbody></table></div>');
  return parts.join('');
}

export interface WarmUp {
  pages: number;
  ms: number;
}

/**
 * Parses `pages` synthetic history pages of real size (2,162 rows, ENGRO's). The table scanner and
 * cell readers it warms are the ones every page kind runs.
 */
export function warmUpParsers(pages = 3): WarmUp {
  const started = performance.now();
  const html = syntheticHistoryPage(2162);
  for (let i = 0; i < pages; i++) {
    if (parseHistory(html).length !== 2162)
      throw new Error('parser warm-up: the synthetic page did not parse');
  }
  return { pages, ms: performance.now() - started };
}
