// A purpose-built HTML scanner for the table extractor. It emits exactly the callback sequence of
// htmlparser2's Tokenizer in HTML mode with `decodeEntities: false`, fed the whole page in one
// `write()` and then `end()` (test/exchange/html/scanner.test.ts checks this against the
// Tokenizer on every recorded and generated page, hand-written edge cases and a fuzz corpus).
//
// Why not the Tokenizer itself: it runs one state-switch per character, and on the 430 KB history
// page that state machine was about half of all parse+map time. Here each token is read by a tight
// loop or an `indexOf` (text to `<`, a quoted value to its quote, a comment to `-`), and only the
// states that can span input end are tracked, because at `end()` the Tokenizer's trailing callbacks
// depend on the exact state it stopped in.
//
// Like the Tokenizer driven without htmlparser2's Parser, the scanner never asks about foreign
// content (`isInForeignContext`): `<svg><title>` still opens an RCDATA title.
//
// The Tokenizer quirks reproduced on purpose (all of them are what the Tokenizer really emits):
// - text is split at every `<` that starts no markup (`a < b` → `a `, `< b`);
// - at input end inside `</x ` (after a closing tag name) or `<x /` it reports `ontext(-1, end)`;
//   inside a tag name that could still become script/style/title/… it reports the name as text;
// - raw-text end tags are matched with `c | 0x20`, so U+001C stands in for `<` and U+000F for `/`;
// - `<![CDATA[…]]>` is reported as `oncdata` even in HTML mode, and only an unclosed one becomes a
//   comment; `onprocessinginstruction` is never called (`<?…>` is a bogus comment in HTML).

/** The quote of an attribute value, numbered as htmlparser2's `QuoteType`. */
export const QuoteType = { NoValue: 0, Unquoted: 1, Single: 2, Double: 3 } as const;
export type QuoteType = (typeof QuoteType)[keyof typeof QuoteType];

/**
 * htmlparser2's `TokenizerCallbacks` without the entity callbacks (decoding stays off: entities
 * arrive inside text and attribute ranges). Ranges are `[start, end)` offsets into the input.
 */
export interface ScanCallbacks {
  ontext(start: number, end: number): void;
  onopentagname(start: number, end: number): void;
  onattribname(start: number, end: number): void;
  onattribdata(start: number, end: number): void;
  onattribend(quote: QuoteType, end: number): void;
  onopentagend(end: number): void;
  onselfclosingtag(end: number): void;
  onclosetag(start: number, end: number): void;
  oncomment(start: number, end: number, endOffset: number): void;
  ondeclaration(start: number, end: number): void;
  onprocessinginstruction(start: number, end: number): void;
  oncdata(start: number, end: number, endOffset: number): void;
  onend(): void;
}

const TAB = 9;
const NEWLINE = 10;
const FORM_FEED = 12;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const BANG = 33;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const DASH = 45;
const SLASH = 47;
const LT = 60;
const EQ = 61;
const GT = 62;
const QUESTION = 63;
const OPEN_BRACKET = 91;

/** Returned by the token readers when the input ended inside the token (trailing callbacks done). */
const END = -1;

// Element bodies the Tokenizer does not scan for markup.
const RAW_TEXT = 1; // only the matching end tag ends it; skipped to each `<`
const RCDATA = 2; // same, but checked character by character (the Tokenizer's entity path)
const PLAIN_TEXT = 3; // never ends

/** The Tokenizer's special elements and their bodies, by name length (see specialIndex). */
const SPECIAL: readonly (readonly [name: string, body: number])[] = [
  ['xmp', RAW_TEXT],
  ['style', RAW_TEXT],
  ['title', RCDATA],
  ['iframe', RAW_TEXT],
  ['script', RAW_TEXT],
  ['noembed', RAW_TEXT],
  ['noframes', RAW_TEXT],
  ['textarea', RCDATA],
  ['plaintext', PLAIN_TEXT],
];

// The Tokenizer's whitespace: no vertical tab, no NBSP.
function isWhitespace(c: number): boolean {
  return c === SPACE || c === NEWLINE || c === TAB || c === FORM_FEED || c === CARRIAGE_RETURN;
}

// What ends a tag name (and, with `=`, an attribute name). Name characters are mostly letters,
// all above `>`, so one comparison settles the common case.
function isEndOfTagSection(c: number): boolean {
  return c <= GT && (c === GT || c === SLASH || isWhitespace(c));
}

function isAsciiAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** `html[start, start + length)` equals the start of lowercase `word` under the Tokenizer's `| 0x20`. */
function matchesFolded(html: string, start: number, word: string, length: number): boolean {
  for (let k = 0; k < length; k++) {
    if ((html.charCodeAt(start + k) | 0x20) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Tokenize all of `html`, calling `cb` as `new Tokenizer({ decodeEntities: false }, cb)` followed
 * by `write(html)` and `end()` would.
 */
export function scanHtml(html: string, cb: ScanCallbacks): void {
  const length = html.length;
  let text = 0; // start of the pending text section
  let from = 0; // where to look for the next `<`
  for (;;) {
    // Between cells the next `<` is usually right there: skip the indexOf call.
    const lt = html.charCodeAt(from) === LT ? from : html.indexOf('<', from);
    if (lt < 0) {
      if (text < length) cb.ontext(text, length);
      break;
    }
    if (lt > text) cb.ontext(text, lt);
    if (lt + 1 >= length) {
      // A lone `<` at the end is text.
      cb.ontext(lt, length);
      break;
    }
    const c = html.charCodeAt(lt + 1);
    let next: number;
    if (isAsciiAlpha(c)) next = openTag(html, lt + 1, cb);
    else if (c === SLASH) next = closeTag(html, lt, cb);
    else if (c === BANG) next = markupDeclaration(html, lt + 2, cb);
    else if (c === QUESTION) next = bogusComment(html, lt + 1, lt + 2, cb);
    else {
      // Not markup: the `<` starts a new text section (the Tokenizer splits the text here).
      text = lt;
      from = lt + 1;
      continue;
    }
    if (next === END) break;
    text = from = next;
  }
  cb.onend();
}

/** `<!…` up to `>`, or to the end of input. `start` is the first character of its content. */
function bogusComment(html: string, start: number, from: number, cb: ScanCallbacks): number {
  const gt = html.indexOf('>', from);
  if (gt < 0) {
    cb.oncomment(start, html.length, 0);
    return END;
  }
  cb.oncomment(start, gt, 0);
  return gt + 1;
}

/** After `<!`: a comment, CDATA, a doctype, or a bogus comment. */
function markupDeclaration(html: string, start: number, cb: ScanCallbacks): number {
  const length = html.length;
  if (start >= length) {
    cb.oncomment(start, length, 0);
    return END;
  }
  const c = html.charCodeAt(start);
  if (c === DASH) {
    if (start + 1 >= length) {
      cb.oncomment(start, length, 0);
      return END;
    }
    const c1 = html.charCodeAt(start + 1);
    if (c1 === DASH) return comment(html, start + 2, cb);
    if (c1 === GT) {
      cb.oncomment(start, start + 1, 0);
      return start + 2;
    }
    return bogusComment(html, start, start + 2, cb);
  }
  if (c === OPEN_BRACKET) return cdata(html, start, cb);
  if ((c | 0x20) === 0x64) return doctype(html, start, cb);
  if (c === GT) {
    cb.oncomment(start, start, 0);
    return start + 1;
  }
  return bogusComment(html, start, start + 1, cb);
}

const CDATA_OPEN = 'CDATA[';

/** After `<!` at `[`: `<![CDATA[…]]>` (case-sensitive), else a bogus comment. */
function cdata(html: string, start: number, cb: ScanCallbacks): number {
  const length = html.length;
  for (let k = 0; k < CDATA_OPEN.length; k++) {
    const at = start + 1 + k;
    if (at >= length) {
      cb.oncomment(start, length, 0);
      return END;
    }
    const c = html.charCodeAt(at);
    if (c !== CDATA_OPEN.charCodeAt(k)) {
      // The mismatching character is reconsumed as bogus-comment content: it may be the `>`.
      return bogusComment(html, start, at, cb);
    }
  }
  const body = start + 1 + CDATA_OPEN.length;
  const close = html.indexOf(']]>', body);
  if (close < 0) {
    // Unclosed CDATA is a bogus comment from the `[`.
    cb.oncomment(start, length, 0);
    return END;
  }
  cb.oncdata(body, close + 2, 2);
  return close + 3;
}

const DOCTYPE = 'doctype';

/** After `<!` at `d`/`D`: a `<!doctype…>` declaration, else a bogus comment. */
function doctype(html: string, start: number, cb: ScanCallbacks): number {
  const length = html.length;
  for (let k = 1; k < DOCTYPE.length; k++) {
    const at = start + k;
    if (at >= length) {
      cb.oncomment(start, length, 0);
      return END;
    }
    const c = html.charCodeAt(at);
    if ((c | 0x20) === DOCTYPE.charCodeAt(k)) continue;
    if (c === GT) {
      cb.oncomment(start, at, 0);
      return at + 1;
    }
    return bogusComment(html, start, at + 1, cb);
  }
  const gt = html.indexOf('>', start + DOCTYPE.length);
  // An unterminated doctype is dropped without a callback.
  if (gt < 0) return END;
  cb.ondeclaration(start, gt);
  return gt + 1;
}

/**
 * After `<!--`: the comment ends at `-->` or `--!>`, or at once with `<!-->` / `<!--->`. The
 * reported end offset is how many characters of `--!>` precede the `>`, as the Tokenizer counts.
 */
function comment(html: string, start: number, cb: ScanCallbacks): number {
  const length = html.length;
  // Characters of `--!>` matched so far (the Tokenizer's sequenceIndex).
  let matched = 0;
  let at = start;
  while (at < length) {
    const c = html.charCodeAt(at);
    if (matched <= 1 && at === start + matched && c === GT) {
      cb.oncomment(start, at, matched);
      return at + 1;
    }
    if (matched === 2 && c === GT) {
      cb.oncomment(start, at, 2);
      return at + 1;
    }
    if (matched === 3) {
      if (c === GT) {
        cb.oncomment(start, at, 3);
        return at + 1;
      }
      matched = c === DASH ? 1 : 0;
    } else if (matched < 2 ? c === DASH : c === BANG) {
      matched++;
    } else if (matched === 0) {
      const dash = html.indexOf('-', at + 1);
      if (dash < 0) break;
      at = dash;
      matched = 1;
    } else if (c !== DASH) {
      // `---` keeps two matched dashes; anything else starts over.
      matched = 0;
    }
    at++;
  }
  cb.oncomment(start, length, matched);
  return END;
}

/** After `</`: a closing tag, `</>` (dropped) or a bogus comment. `lt` is the `<`. */
function closeTag(html: string, lt: number, cb: ScanCallbacks): number {
  const length = html.length;
  const start = lt + 2;
  if (start >= length) {
    cb.ontext(lt, length);
    return END;
  }
  const c = html.charCodeAt(start);
  if (c === GT) return start + 1;
  if (!isAsciiAlpha(c)) return bogusComment(html, start, start + 1, cb);
  let at = start + 1;
  while (at < length && !isEndOfTagSection(html.charCodeAt(at))) at++;
  // Input ending inside the name drops the tag silently.
  if (at >= length) return END;
  cb.onclosetag(start, at);
  return afterClosingTagName(html, at, cb);
}

/** Anything after a closing tag's name up to `>` is ignored. */
function afterClosingTagName(html: string, at: number, cb: ScanCallbacks): number {
  const gt = html.charCodeAt(at) === GT ? at : html.indexOf('>', at + 1);
  if (gt < 0) {
    // The Tokenizer's section start is -1 here, and it still reports the trailing "text".
    cb.ontext(-1, html.length);
    return END;
  }
  return gt + 1;
}

/** `<` followed by a letter at `start`: name, attributes, and the element body if it is special. */
function openTag(html: string, start: number, cb: ScanCallbacks): number {
  const length = html.length;
  let at = start + 1;
  let c = 0;
  while (at < length) {
    c = html.charCodeAt(at);
    if (isEndOfTagSection(c)) break;
    at++;
  }
  if (at >= length) {
    // Input ended inside the name. While the name could still become a special one, the Tokenizer
    // is in its matching state, whose leftovers it reports as text; otherwise the tag is dropped.
    const nameLength = at - start;
    for (const [name] of SPECIAL) {
      if (nameLength <= name.length && matchesFolded(html, start, name, nameLength)) {
        cb.ontext(start, length);
        break;
      }
    }
    return END;
  }
  const special = specialIndex(html, start, at - start);
  cb.onopentagname(start, at);

  // Attributes, from the Tokenizer's BeforeAttributeName state at `at`.
  for (;;) {
    if (at >= length) return END;
    c = html.charCodeAt(at);
    if (c === GT) {
      cb.onopentagend(at);
      return elementBody(html, at + 1, special, cb);
    }
    if (c === SLASH) {
      // `/` then whitespace waits for `>`; anything else is read as attributes again.
      at++;
      while (at < length && isWhitespace(html.charCodeAt(at))) at++;
      if (at >= length) {
        cb.ontext(-1, length);
        return END;
      }
      if (html.charCodeAt(at) === GT) {
        // HTML ignores the self-closing flag: a special element's body still follows.
        cb.onselfclosingtag(at);
        return elementBody(html, at + 1, special, cb);
      }
      continue;
    }
    if (isWhitespace(c)) {
      at++;
      continue;
    }
    // An attribute name; its first character is taken whatever it is (even `=`).
    const nameStart = at;
    at++;
    while (at < length) {
      c = html.charCodeAt(at);
      if (c === EQ || isEndOfTagSection(c)) break;
      at++;
    }
    if (at >= length) return END;
    cb.onattribname(nameStart, at);
    const nameEnd = at;
    while (at < length && isWhitespace(html.charCodeAt(at))) at++;
    if (at >= length) return END;
    if (html.charCodeAt(at) !== EQ) {
      cb.onattribend(QuoteType.NoValue, nameEnd);
      continue;
    }
    at++;
    while (at < length && isWhitespace(html.charCodeAt(at))) at++;
    if (at >= length) return END;
    c = html.charCodeAt(at);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const valueStart = at + 1;
      const close = html.indexOf(c === DOUBLE_QUOTE ? '"' : "'", valueStart);
      if (close < 0) {
        if (valueStart < length) cb.onattribdata(valueStart, length);
        return END;
      }
      cb.onattribdata(valueStart, close);
      cb.onattribend(c === DOUBLE_QUOTE ? QuoteType.Double : QuoteType.Single, close + 1);
      at = close + 1;
      continue;
    }
    // Unquoted: `/` belongs to the value; whitespace or `>` ends it (`<a b=>` has an empty one).
    const valueStart = at;
    while (at < length) {
      c = html.charCodeAt(at);
      if (c === GT || isWhitespace(c)) break;
      at++;
    }
    if (at >= length) {
      cb.onattribdata(valueStart, length);
      return END;
    }
    cb.onattribdata(valueStart, at);
    cb.onattribend(QuoteType.Unquoted, at);
  }
}

/**
 * Which special element `html[start, start + nameLength)` names (case-insensitively), as an index
 * into SPECIAL, or -1. The length picks the candidates, so the portal's tags (`td`, `tr`, `a`,
 * `div`, …) are rejected without a comparison.
 */
function specialIndex(html: string, start: number, nameLength: number): number {
  let first: number;
  let last: number;
  switch (nameLength) {
    case 3:
      first = last = 0;
      break;
    case 5:
      first = 1;
      last = 2;
      break;
    case 6:
      first = 3;
      last = 4;
      break;
    case 7:
      first = last = 5;
      break;
    case 8:
      first = 6;
      last = 7;
      break;
    case 9:
      first = last = 8;
      break;
    default:
      return -1;
  }
  for (let i = first; i <= last; i++) {
    const name = (SPECIAL[i] as readonly [string, number])[0];
    if (matchesFolded(html, start, name, nameLength)) return i;
  }
  return -1;
}

/** Where text resumes after an open tag's `>` at `start - 1` (END if the body runs to the end). */
function elementBody(html: string, start: number, special: number, cb: ScanCallbacks): number {
  if (special < 0) return start;
  const [name, body] = SPECIAL[special] as readonly [string, number];
  if (body === PLAIN_TEXT) {
    if (start < html.length) cb.ontext(start, html.length);
    return END;
  }
  return specialBody(html, start, body === RCDATA, name, cb);
}

/**
 * A raw-text or RCDATA body: text up to `</name` followed by whitespace, `/` or `>`. This follows
 * the Tokenizer's matcher step for step (its `| 0x20` folding and its restarts after a partial
 * match decide which odd inputs end the element), skipping only where the Tokenizer skips.
 */
function specialBody(html: string, start: number, rcdata: boolean, name: string, cb: ScanCallbacks): number {
  const length = html.length;
  const sequence = '</' + name;
  const sequenceLength = sequence.length;
  let matched = 0;
  let at = start;
  while (at < length) {
    const c = html.charCodeAt(at);
    if (matched === sequenceLength) {
      if (isEndOfTagSection(c)) {
        const textEnd = at - sequenceLength;
        if (start < textEnd) cb.ontext(start, textEnd);
        cb.onclosetag(textEnd + 2, at);
        return afterClosingTagName(html, at, cb);
      }
      matched = 0;
    }
    if ((c | 0x20) === sequence.charCodeAt(matched)) {
      matched++;
    } else if (matched === 0) {
      if (rcdata) {
        // Every character is compared; only `<` and U+001C fold to `<`.
        at++;
        while (at < length && (html.charCodeAt(at) | 0x20) !== LT) at++;
        continue;
      }
      const lt = html.indexOf('<', at + 1);
      if (lt < 0) break;
      at = lt;
      matched = 1;
    } else {
      // `<</script>`: a `<` restarts the match.
      matched = c === LT ? 1 : 0;
    }
    at++;
  }
  if (start < length) cb.ontext(start, length);
  return END;
}
