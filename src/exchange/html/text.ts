// Whitespace as HTML and the portal use it: the table collector trims and collapses cell text with
// it, and the page parsers' cell readers skip it.

/** HTML whitespace plus NBSP: the portal pads cells with `&nbsp;` as often as with spaces. */
export function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0;
}

/** Trim and collapse every whitespace run to one space. Returns the input when already clean. */
export function collapseWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  let clean = true;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 32) {
      if (isSpace(text.charCodeAt(i + 1))) {
        clean = false;
        break;
      }
    } else if (isSpace(code)) {
      clean = false;
      break;
    }
  }
  if (clean) return start === 0 && end === text.length ? text : text.slice(start, end);
  let out = '';
  let wordStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && !isSpace(text.charCodeAt(i))) continue;
    if (i > wordStart) out += out.length > 0 ? ' ' + text.slice(wordStart, i) : text.slice(wordStart, i);
    wordStart = i + 1;
  }
  return out;
}
