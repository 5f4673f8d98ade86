// The test runner's reporter for the terminal (scripts/run-tests.mjs): a dot per finished top-level
// test or suite, each failure's name and place as it happens, and at the end the failures again,
// one line of counts and time a person reads, and the runner's own closing lines ("# pass N",
// "# fail N", …) that CI reads. The full TAP goes to a file beside it (run-tests.mjs).
// Works with the event shapes of Node 22 and 24 (node:test reporters API).

const WIDTH = 80;

/** "describe › it" from the names of the enclosing tests, by nesting level. */
function pathOf(stack, nesting, name) {
  return [...stack.slice(0, nesting), name].join(' › ');
}

/** The error's first lines (an assertion's message and its first differing values), shortened. */
function reasonOf(error) {
  const cause = error?.cause ?? error;
  const text = cause?.message ?? String(cause ?? '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 3)
    .map((line) => (line.length > 160 ? `${line.slice(0, 157)}...` : line));
}

function placeOf(data) {
  if (!data.file) return '';
  const file = data.file.startsWith(process.cwd() + '/')
    ? data.file.slice(process.cwd().length + 1)
    : data.file;
  // Only the file: under tsx the reported line is the compiled code's, not the source's.
  return file;
}

export default async function* summaryReporter(source) {
  const stack = [];
  const failures = [];
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  const closing = [];
  let column = 0;
  const dot = (mark) => {
    column++;
    return column % WIDTH === 0 ? `${mark}\n` : mark;
  };

  for await (const { type, data } of source) {
    if (type === 'test:start') {
      stack[data.nesting] = data.name;
      stack.length = data.nesting + 1;
    } else if (type === 'test:pass' || type === 'test:fail') {
      const suite = data.details?.type === 'suite';
      const failed = type === 'test:fail';
      // A suite fails when one of its tests does; only the test itself is named.
      const ownFailure = failed && data.details?.error?.failureType !== 'subtestsFailed';
      if (!suite) {
        if (data.skip !== undefined && data.skip !== false) counts.skipped++;
        else if (data.todo !== undefined && data.todo !== false) counts.todo++;
        else if (failed) counts.failed++;
        else counts.passed++;
      }
      let out = '';
      if (ownFailure && !(data.todo !== undefined && data.todo !== false)) {
        const failure = {
          name: pathOf(stack, data.nesting, data.name),
          place: placeOf(data),
          reasons: reasonOf(data.details?.error),
        };
        failures.push(failure);
        if (column % WIDTH !== 0) out += '\n';
        column = 0;
        out += `✖ ${failure.name}  (${failure.place})\n${failure.reasons.map((r) => `    ${r}\n`).join('')}`;
      }
      if (data.nesting === 0) out += dot(failed ? 'X' : '.');
      if (out) yield out;
    } else if (type === 'test:diagnostic' && data.nesting === 0 && !data.file) {
      // The runner's closing lines: "tests 12", "pass 11", "fail 1", …, "duration_ms 1234.5".
      closing.push(data.message);
    }
  }

  const lines = [''];
  if (column % WIDTH !== 0) lines.unshift('');
  if (failures.length > 0) {
    lines.push(`Failed (${failures.length}):`);
    for (const f of failures)
      lines.push(`  ✖ ${f.name}  (${f.place})`, ...f.reasons.map((r) => `      ${r}`));
    lines.push('');
  }
  const ms = Number(
    /^duration_ms ([\d.]+)/.exec(closing.find((m) => m.startsWith('duration_ms')) ?? '')?.[1],
  );
  const time = Number.isFinite(ms) ? ` in ${(ms / 1000).toFixed(1)} s` : '';
  const tap = process.env.TEST_TAP_FILE ? ` (full TAP: ${process.env.TEST_TAP_FILE})` : '';
  lines.push(
    `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped, ${counts.todo} todo${time}${tap}`,
  );
  for (const message of closing) lines.push(`# ${message}`);
  yield lines.join('\n') + '\n';
}
