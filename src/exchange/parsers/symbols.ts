// `GET /symbols`: a JSON array of `{symbol, name, sectorName, isETF, isDebt, isGEM?}`.
import { UpstreamDataError } from '../../errors.ts';
import type { PortalSymbol } from '../types.ts';
import { isSymbol } from './cells.ts';

function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 1;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The portal's instrument list. Items without a usable symbol are skipped; `isGEM` is absent on
 * debt instruments (282 of 1,029 on 2026-04-08) and reads as false.
 */
export function parseSymbols(jsonText: string): PortalSymbol[] {
  if (typeof jsonText !== 'string') throw new UpstreamDataError('symbols', 'the response is not text');
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch {
    throw new UpstreamDataError('symbols', 'malformed JSON');
  }
  if (!Array.isArray(parsed)) throw new UpstreamDataError('symbols', 'not a JSON array');
  const symbols: PortalSymbol[] = [];
  for (const item of parsed as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    const symbol = text(record.symbol);
    if (!isSymbol(symbol)) continue;
    symbols.push({
      symbol: symbol.toUpperCase(),
      name: text(record.name),
      sectorName: text(record.sectorName),
      isETF: flag(record.isETF),
      isDebt: flag(record.isDebt),
      isGEM: flag(record.isGEM),
    });
  }
  return symbols;
}
