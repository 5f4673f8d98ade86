// Entity decoding for the few captured strings that contain `&`. The table extractor runs
// htmlparser2's Tokenizer with decodeEntities off, which lets it skip through text and attribute
// values with a plain character scan (bench/README.md); the strings it
// keeps are then decoded here by the same Tokenizer with decoding on, so the rules (legacy
// entities, attribute mode) stay htmlparser2's.
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

class DecodedText implements TokenizerCallbacks {
  value = '';
  constructor(private readonly source: string) {}
  ontext(start: number, end: number): void {
    this.value += this.source.slice(start, end);
  }
  ontextentity(codepoint: number): void {
    this.value += String.fromCodePoint(codepoint);
  }
  onattribdata(start: number, end: number): void {
    this.value += this.source.slice(start, end);
  }
  onattribentity(codepoint: number): void {
    this.value += String.fromCodePoint(codepoint);
  }
  onattribname(): void {}
  onattribend(): void {}
  oncdata(): void {}
  onclosetag(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onopentagend(): void {}
  onopentagname(): void {}
  onprocessinginstruction(): void {}
  onselfclosingtag(): void {}
}

function decode(source: string): string {
  const sink = new DecodedText(source);
  const tokenizer = new Tokenizer({ decodeEntities: true }, sink);
  tokenizer.write(source);
  tokenizer.end();
  return sink.value;
}

/** Decode the entities of a text node's raw text (`AUTOMOBILE PARTS &amp; ACCESSORIES`). */
export function decodeText(raw: string): string {
  return raw.indexOf('&') < 0 ? raw : decode(raw);
}

/** Decode the entities of a raw attribute value, with attribute-value rules. */
export function decodeAttribute(raw: string): string {
  if (raw.indexOf('&') < 0) return raw;
  const quote = raw.indexOf('"') < 0 ? '"' : "'";
  if (raw.indexOf(quote) >= 0) return raw;
  const wrapped = `<a v=${quote}${raw}${quote}>`;
  return decode(wrapped);
}
