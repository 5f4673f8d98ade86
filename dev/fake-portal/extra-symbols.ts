// Extra (generated) symbols for benchmarks and large markets: `XAAA`, `XAAB`, … with names, sectors
// and sizes drawn from (seed, symbol), so the base universe's values never change with their number.
import { round2 } from './numbers.ts';
import { rngFor } from './random.ts';
import { SECTORS, type BaseSpec } from './universe.ts';

// prettier-ignore
const EXTRA_FIRST = [
  'Crescent', 'Indus', 'Karakoram', 'Margalla', 'Ravi', 'Sutlej', 'Chenab', 'Jhelum', 'Thar', 'Bolan', 'Khyber',
  'Hunza', 'Swat', 'Kaghan', 'Makran', 'Potohar',
];
// prettier-ignore
const EXTRA_SECOND = [
  'Textile Mills', 'Industries', 'Energy', 'Foods', 'Chemicals', 'Holdings', 'Power', 'Steel', 'Paper & Board',
  'Pharma', 'Cement', 'Motors',
];
const EXTRA_SECTORS = SECTORS.filter((s) => s.code !== '0814' && s.code !== '0837').map((s) => s.code);

function extraCode(i: number): string {
  const a = String.fromCharCode(65 + (Math.floor(i / 676) % 26));
  const b = String.fromCharCode(65 + (Math.floor(i / 26) % 26));
  const c = String.fromCharCode(65 + (i % 26));
  return `X${a}${b}${c}`;
}

export function extraSpec(i: number, seed: number): BaseSpec {
  const symbol = extraCode(i);
  const rng = rngFor(seed, `extra:${symbol}`);
  const first = EXTRA_FIRST[i % EXTRA_FIRST.length] as string;
  const second = EXTRA_SECOND[Math.floor(i / EXTRA_FIRST.length) % EXTRA_SECOND.length] as string;
  return {
    symbol,
    name: `${first} ${second} ${String(i + 1).padStart(4, '0')} Limited`,
    sector: EXTRA_SECTORS[i % EXTRA_SECTORS.length] as string,
    price: round2(5 + rng() * rng() * 900),
    sharesM: round2(20 + rng() * 900),
    ff: round2(0.1 + rng() * 0.5),
    fye: i % 3 === 0 ? 12 : 6,
    tags: i % 50 === 7 ? ['XD'] : undefined,
    untraded: i % 10 === 9,
  };
}
