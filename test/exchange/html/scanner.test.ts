// Differential test of the table extractor's scanner against htmlparser2's Tokenizer (HTML mode,
// decodeEntities off, whole input in one write): the callback sequences, names and arguments,
// must be identical (no merging of adjacent text ranges) for the recorded portal pages, the fake
// portal's pages, hand-written edge cases (each also cut at every position, for input ending
// inside every construct) and a seeded fuzz corpus of mutated page snippets.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer, type QuoteType, type TokenizerCallbacks } from 'htmlparser2';
import { scanHtml, type ScanCallbacks } from '../../../src/exchange/html/scanner.ts';
import { createDataset, mulberry32, type Rng } from '../../../dev/fake-portal/dataset.ts';
import {
  renderCarousel,
  renderErrorPage,
  renderGarbagePage,
  renderHistorical,
  renderHomePage,
  renderIndexConstituents,
  renderIndicesPage,
  renderMarketWatch,
  renderNotFoundPage,
  renderReports,
  renderScreenerPage,
  renderSectorSummary,
  renderSymbolsJson,
} from '../../../dev/fake-portal/pages.ts';
import { page, symbolCell, table, td } from '../parsers/html.ts';

// The repository root is three levels up from test/exchange/parsers; the recordings sit beside it.
const RECORDED = fileURLToPath(new URL('../../../../shared/dps-recorded/', import.meta.url));

/** Every callback as `name(args)`, in order. */
class Recorder implements TokenizerCallbacks, ScanCallbacks {
  readonly events: string[] = [];
  ontext(start: number, end: number): void {
    this.events.push(`ontext(${start},${end})`);
  }
  onopentagname(start: number, end: number): void {
    this.events.push(`onopentagname(${start},${end})`);
  }
  onattribname(start: number, end: number): void {
    this.events.push(`onattribname(${start},${end})`);
  }
  onattribdata(start: number, end: number): void {
    this.events.push(`onattribdata(${start},${end})`);
  }
  onattribend(quote: QuoteType | number, end: number): void {
    this.events.push(`onattribend(${quote},${end})`);
  }
  onopentagend(end: number): void {
    this.events.push(`onopentagend(${end})`);
  }
  onselfclosingtag(end: number): void {
    this.events.push(`onselfclosingtag(${end})`);
  }
  onclosetag(start: number, end: number): void {
    this.events.push(`onclosetag(${start},${end})`);
  }
  oncomment(start: number, end: number, offset: number): void {
    this.events.push(`oncomment(${start},${end},${offset})`);
  }
  ondeclaration(start: number, end: number): void {
    this.events.push(`ondeclaration(${start},${end})`);
  }
  onprocessinginstruction(start: number, end: number): void {
    this.events.push(`onprocessinginstruction(${start},${end})`);
  }
  oncdata(start: number, end: number, offset: number): void {
    this.events.push(`oncdata(${start},${end},${offset})`);
  }
  onend(): void {
    this.events.push('onend()');
  }
  // Never called with decoding off; recorded so that a call would show up as a difference.
  ontextentity(codepoint: number, end: number): void {
    this.events.push(`ontextentity(${codepoint},${end})`);
  }
  onattribentity(codepoint: number): void {
    this.events.push(`onattribentity(${codepoint})`);
  }
}

function reference(html: string): string[] {
  const recorder = new Recorder();
  const tokenizer = new Tokenizer({ decodeEntities: false }, recorder);
  tokenizer.write(html);
  tokenizer.end();
  return recorder.events;
}

function scanned(html: string): string[] {
  const recorder = new Recorder();
  scanHtml(html, recorder);
  return recorder.events;
}

/** Callback names seen over all compared inputs (to check the cases reach every callback). */
const seen = new Set<string>();

/** Asserts identical sequences; on a difference, shows the events around the first one. */
function assertSameEvents(label: string, html: string): number {
  const expected = reference(html);
  const actual = scanned(html);
  for (const event of expected) seen.add(event.slice(0, event.indexOf('(')));
  const n = Math.min(expected.length, actual.length);
  let at = 0;
  while (at < n && expected[at] === actual[at]) at++;
  if (at < n || expected.length !== actual.length) {
    const from = Math.max(0, at - 3);
    const near = /\((-?\d+)/.exec(expected[at] ?? expected.at(-1) ?? '')?.[1] ?? '0';
    const pos = Math.max(0, Number(near));
    assert.deepStrictEqual(
      actual.slice(from, at + 6),
      expected.slice(from, at + 6),
      `${label}: first difference at event ${at} of ${expected.length} (scanner emitted ${actual.length}), ` +
        `input near offset ${pos}: ${JSON.stringify(html.slice(Math.max(0, pos - 40), pos + 60))}`,
    );
  }
  assert.deepStrictEqual(actual, expected, label);
  return expected.length;
}

/** Every `.html`/`.json` file under the recordings folder ([] without the folder). */
function recordedPaths(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.html') || name.endsWith('.json')) files.push(path);
    }
  };
  if (existsSync(RECORDED)) walk(RECORDED);
  return files;
}

const TOKEN = 'b'.repeat(43);

let generated: [string, string][] | undefined;

/** The fake portal's pages, rendered from its default dataset (history ENGRO at real size). */
function generatedPages(): [string, string][] {
  if (generated !== undefined) return generated;
  const ds = createDataset();
  const pages: [string, string][] = [
    ['home', renderHomePage(ds, TOKEN)],
    ['symbols json', renderSymbolsJson(ds)],
    ['screener', renderScreenerPage(ds, TOKEN)],
    ['market watch', renderMarketWatch(ds)],
    ['indices', renderIndicesPage(ds, TOKEN)],
    ['sector summary', renderSectorSummary(ds)],
    ['carousel', renderCarousel(ds)],
    ['not found', renderNotFoundPage(ds, TOKEN, '/company/NOPE')],
    ['garbage', renderGarbagePage()],
    ['error 503', renderErrorPage(503)],
    ['history ENGRO', renderHistorical(ds, 'ENGRO')],
    ['history unknown', renderHistorical(ds, 'NOPE')],
    ['test page builder', page(table(['SYMBOL', 'A'], [[symbolCell('FCCL', 'Fauji & Co', 'XD'), td('x')]]))],
  ];
  for (const code of ds.indexCodes) pages.push([`index ${code}`, renderIndexConstituents(ds, code) ?? '']);
  for (const symbol of ['HBL', 'ENGRO', 'NOPE'])
    pages.push([`reports ${symbol}`, renderReports(ds, symbol) ?? '']);
  generated = pages;
  return pages;
}

/** Hand-written edge cases, each named for what it exercises. */
const EDGE_CASES: readonly (readonly [string, string])[] = [
  ['empty input', ''],
  ['text only', 'hello world'],
  ['entities stay in text', 'A &amp; B &lt; C &#x41; &nbsp;&notanentity; &'],
  ['entities in attribute values', '<a title="A &amp; B" data-x=\'&lt;\' y=&quot;z>x</a>'],
  ['simple element', '<p>text</p>'],
  ['uppercase names', '<TABLE ID="t"><TR><TD Data-Order="1">x</TD></TR></TABLE>'],
  ['mixed-case special', '<ScRiPt>a</sCrIpT>b'],
  ['lt not starting a tag', 'a < b <1 <- <= <<b>x'],
  ['lt at end', 'abc<'],
  ['lt and space at end', 'abc< '],
  ['double quoted attribute', '<td class="right" data-order="12.5">x</td>'],
  ['single quoted attribute', "<td class='right' data-order='12.5'>x</td>"],
  ['unquoted attribute', '<td class=right data-order=12.5>x</td>'],
  ['unquoted with slash', '<a href=/company/X/>x</a>'],
  ['empty unquoted before gt', '<a b=>x'],
  ['attribute without value', '<input disabled checked>'],
  ['value-less then slash', '<input disabled/>'],
  ['duplicate attributes', '<a href="1" href="2" HREF=3>x</a>'],
  ['spaces around equals', '<a b = "c" d\n=\ne f =g>x'],
  ['attribute name starting with equals', '<a =b ="c">x'],
  ['attribute names with odd chars', '<a "x"=1 \'y\'=2 <z=3 a!b c?d>x'],
  ['quote inside unquoted value', '<a b=c"d e=f\'g>x'],
  ['empty quoted values', '<a b="" c=\'\'>x'],
  ['gt inside quoted value', '<a title="a>b" c=\'d>e\'>x'],
  ['newline inside quoted value', '<a title="a\nb">x'],
  ['self-closing', '<br/><br /><img src="x"/><div/>text'],
  ['slash then whitespace then gt', '<a / >x'],
  ['slashes between attributes', '<a b/c/d=e//>x'],
  ['slash then attribute', '<a /b>x'],
  ['tag name with slash', '<a/b>x'],
  ['tag name with odd chars', '<a1-b_c:d.e>x</a1-b_c:d.e>'],
  ['tabs, newlines, form feed, CR in tags', '<a\tb\n=\r"c"\fd>x</a\n>'],
  ['vertical tab is not whitespace', '<a\vb=c\vd>x</a\v>'],
  ['closing tag with attributes', '</div class="x">y'],
  ['closing tag with junk', '</td  foo bar>x</tr/>y'],
  ['empty closing tag', 'a</>b'],
  ['closing tag with space', 'a</ b>c'],
  ['closing tag with digit', 'a</1>b'],
  ['closing tag with bang', 'a</!x>b'],
  ['closing tag at end', 'a</'],
  ['closing tag name at end', 'a</div'],
  ['closing tag after name at end', 'a</div '],
  ['closing tag attribute at end', 'a</div x="'],
  ['comment', 'a<!-- hello -->b'],
  ['comment with dashes', 'a<!-- a - b -- c --->b'],
  ['comment ending bang', 'a<!-- x --!>b'],
  ['comment bang not ending', 'a<!-- x --!x -->b'],
  ['comment bang dash', 'a<!-- x --!--!>b'],
  ['empty comment', 'a<!---->b'],
  ['abrupt comment', 'a<!-->b'],
  ['abrupt comment with dash', 'a<!--->b'],
  ['comment with gt at start', 'a<!-- >x -->b'],
  ['comment containing tags', '<!-- <table><tr><td>x</td></tr></table> -->'],
  ['comment at end', 'a<!-- never closed'],
  ['comment ending in dashes at end', 'a<!-- x --'],
  ['comment ending in bang at end', 'a<!-- x --!'],
  ['bang dash bogus', 'a<!-x>b'],
  ['bang dash gt', 'a<!->b'],
  ['bang gt', 'a<!>b'],
  ['bang bogus comment', 'a<!foo bar>b'],
  ['bang lt', 'a<!<x>b'],
  ['doctype', '<!DOCTYPE html><html>'],
  ['doctype lowercase, no space', '<!doctypehtml><p>'],
  ['doctype empty', '<!doctype>x'],
  ['doctype-like bogus', '<!DOCTYPO html>x<!DOC>y<!D>z'],
  ['doctype at end', '<!DOCTYPE html'],
  ['doctype name at end', '<!DOCTY'],
  ['doctype complete at end', '<!DOCTYPE'],
  ['cdata', 'a<![CDATA[ <b>x</b> ]]>c'],
  ['cdata with brackets', 'a<![CDATA[x]]]>y<![CDATA[]x]]>z'],
  ['empty cdata', '<![CDATA[]]>'],
  ['lowercase cdata is bogus', 'a<![cdata[x]]>b'],
  ['cdata mismatch gt', 'a<![>b<![CD>c'],
  ['cdata at end', 'a<![CDATA[ x ]'],
  ['cdata opener at end', 'a<![CDA'],
  ['processing instruction', 'a<?xml version="1.0"?>b'],
  ['question gt', 'a<?>b'],
  ['processing instruction at end', 'a<?xml'],
  ['script', '<script>var x = "<table><tr><td>x</td></tr></table>"; if (a < b) {}</script>after'],
  ['script with nested lt', '<script><</script>x'],
  ['script with partial end tags', '<script></scrip></scriptx></ script></script >y'],
  ['script end tag with attributes', '<script>x</script foo="bar">y'],
  ['script end tag with slash', '<script>x</script/>y'],
  ['script never closed', '<script>var a = 1;'],
  ['script partial end at end', '<script>x</scr'],
  ['script full end at end', '<script>x</script'],
  ['script end tag then space at end', '<script>x</script '],
  ['script with attributes', '<script type="text/javascript" src=x>y</script>z'],
  ['self-closing script still raw', '<script/>a<b>c</script>d'],
  ['style', '<style>td > b { color: red; } /* </td> */</style><b>x</b>'],
  ['title is rcdata', '<title>A <b>bold</b> &amp; title</title><b>x</b>'],
  ['textarea is rcdata', '<textarea><td>x</td></textarea><td>y</td>'],
  [
    'iframe, noembed, noframes, xmp',
    '<iframe><a></iframe><noembed><a></noembed><noframes><a></noframes><xmp><a></xmp>',
  ],
  ['plaintext', 'a<plaintext><b>x</b></plaintext>y'],
  ['plaintext at end', 'a<plaintext>'],
  ['almost special names', '<scripts>a</scripts><styl>b<titles>c<texta>d<xm>e<nob>f<ifram>g'],
  ['special prefix at end', 'a<scr'],
  ['special name at end', 'a<script'],
  ['special prefix with uppercase at end', 'a<TEXTA'],
  ['non-special name at end', 'a<div'],
  ['tag after name at end', 'a<div '],
  ['attribute name at end', 'a<div cl'],
  ['after attribute name at end', 'a<div class '],
  ['before value at end', 'a<div class='],
  ['before value space at end', 'a<div class= '],
  ['open quote at end', 'a<div class="'],
  ['quoted value at end', 'a<div class="tb'],
  ['unquoted value at end', 'a<div class=tb'],
  ['slash at end', 'a<div /'],
  ['slash space at end', 'a<div / '],
  ['U+001C folds to lt in script end', '<script>a\u001c/script>b</script>c'],
  ['U+000F folds to slash in script end', '<script>a<\u000fscript>b</script>c'],
  ['U+001C in title end', '<title>a\u001c/title>b'],
  ['U+001C after partial end', '<script>a</x\u001c/script>b'],
  ['U+001C mid-text ends RCDATA (every character compared)', '<textarea>a\u001c/textarea>b'],
  ['U+001C mid-text skipped in raw text (skips to <)', '<style>a\u001c/style>b</style>c'],
  ['NUL and odd chars', '<a\u0000b c\u0000="d\u0000">\u0000x\u0000</a\u0000>\u0000'],
  ['non-ASCII', '<td title="₨ ▲ 名">٣٤ ↑ ✓</td><ÿ>x</ÿ>'],
  ['astral characters', '<a b="😀">😀</a><😀>'],
  ['svg title is still rcdata', '<svg><title><b>x</b></title></svg>'],
  ['nested tables', '<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table>'],
  ['unclosed cells', '<table><tr><td>1<td>2<tr><td>3</table>'],
  [
    'portal-shaped row',
    '<tr><td data-order="1735902000">Jan 3, 2025</td><td class="right">4,496,408</td></tr>',
  ],
];

// Characters the fuzzer inserts: markup punctuation, whitespace and the letters of table tags.
const FUZZ_CHARS = '<>/"\'=!-?& \n\tabcdTDR[]';

function randomInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** One to five random edits of a snippet. */
function mutate(rng: Rng, input: string): string {
  let s = input;
  const edits = 1 + randomInt(rng, 5);
  for (let e = 0; e < edits; e++) {
    const at = randomInt(rng, s.length + 1);
    switch (randomInt(rng, 6)) {
      case 0: // truncate
        s = s.slice(0, at);
        break;
      case 1: {
        // insert a few characters
        let insert = '';
        for (let k = 1 + randomInt(rng, 3); k > 0; k--)
          insert += FUZZ_CHARS[randomInt(rng, FUZZ_CHARS.length)];
        s = s.slice(0, at) + insert + s.slice(at);
        break;
      }
      case 2: {
        const end = Math.min(s.length, at + 1 + randomInt(rng, 20));
        s = s.slice(0, at) + s.slice(at, end).toUpperCase() + s.slice(end);
        break;
      }
      case 3: {
        // drop one quote
        const quote = s.indexOf(rng() < 0.5 ? '"' : "'", at);
        if (quote >= 0) s = s.slice(0, quote) + s.slice(quote + 1);
        break;
      }
      case 4: {
        // delete a span
        const end = Math.min(s.length, at + 1 + randomInt(rng, 10));
        s = s.slice(0, at) + s.slice(end);
        break;
      }
      default: {
        // splice in an edge case's markup
        const [, edge] = EDGE_CASES[randomInt(rng, EDGE_CASES.length)] as readonly [string, string];
        s = s.slice(0, at) + edge + s.slice(at);
      }
    }
  }
  return s;
}

/** Every generated page and every recorded one (none without the folder). */
function corpus(): string[] {
  return [
    ...generatedPages().map(([, html]) => html),
    ...recordedPaths().map((path) => readFileSync(path, 'utf8')),
  ];
}

describe('scanner: same callbacks as htmlparser2 Tokenizer (decodeEntities off)', () => {
  it('every recorded portal page', (t) => {
    const files = recordedPaths();
    if (files.length === 0) {
      t.skip(`recorded portal pages not found (${RECORDED}); not compared`);
      return;
    }
    assert.ok(files.length >= 10, `expected the recorded pages, found ${files.length}`);
    for (const file of files) {
      const events = assertSameEvents(file, readFileSync(file, 'utf8'));
      assert.ok(events > 1, `${file}: no events`);
    }
  });

  it("the fake portal's generated pages", () => {
    for (const [label, html] of generatedPages()) assertSameEvents(label, html);
  });

  describe('edge cases', () => {
    for (const [name, html] of EDGE_CASES) {
      it(name, () => {
        assertSameEvents(name, html);
        // Cut at every position: input ending inside each construct.
        for (let cut = 0; cut < html.length; cut++)
          assertSameEvents(`${name}, cut at ${cut}`, html.slice(0, cut));
      });
    }

    it('reach every callback the Tokenizer makes in HTML mode', () => {
      seen.clear();
      for (const [name, html] of EDGE_CASES) assertSameEvents(name, html);
      for (const callback of [
        'ontext',
        'onopentagname',
        'onattribname',
        'onattribdata',
        'onattribend',
        'onopentagend',
        'onselfclosingtag',
        'onclosetag',
        'oncomment',
        'ondeclaration',
        'oncdata',
        'onend',
      ]) {
        assert.ok(seen.has(callback), `no edge case makes the Tokenizer call ${callback}`);
      }
    });
  });

  it('seeded fuzz: mutated snippets of real and generated pages', () => {
    const rng = mulberry32(0x5ca11e7);
    const texts = corpus();
    const cases = 4000;
    for (let i = 0; i < cases; i++) {
      const source = texts[randomInt(rng, texts.length)] as string;
      const length = 1 + randomInt(rng, 600);
      const start = randomInt(rng, Math.max(1, source.length - length));
      const input = mutate(rng, source.slice(start, start + length));
      assertSameEvents(`fuzz case ${i}: ${JSON.stringify(input)}`, input);
    }
  });
});
