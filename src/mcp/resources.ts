// What agents read rather than call: the OpenAPI document, and a symbol's profile as text.
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError, ValidationError, clientText } from '../errors.ts';
import { profile } from '../market/company/company.ts';
import { quote } from '../market/quotes/quotes.ts';
import { fields, type ToolContext } from './tool-kit.ts';

export const OPENAPI_URI = 'psx://openapi.json';
const PROFILE_PREFIX = 'psx://stocks/';
const PROFILE_SUFFIX = '/profile';
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$/;

export const RESOURCES = [
  {
    uri: OPENAPI_URI,
    name: 'openapi',
    title: 'OpenAPI document',
    description: "The REST API's OpenAPI 3.1 document: every endpoint, parameter, field and error code.",
    mimeType: 'application/json',
  },
];

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: `${PROFILE_PREFIX}{symbol}${PROFILE_SUFFIX}`,
    name: 'symbol-profile',
    title: "A symbol's profile",
    description:
      "The company profile and today's quote of a listed symbol, as text (e.g. psx://stocks/ENGRO/profile).",
    mimeType: 'text/plain',
  },
];

export async function readResource(
  uri: string,
  t: ToolContext,
  openapi: () => unknown,
): Promise<ReadResourceResult> {
  if (uri === OPENAPI_URI) {
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(openapi()) }] };
  }
  if (uri.startsWith(PROFILE_PREFIX) && uri.endsWith(PROFILE_SUFFIX)) {
    const symbol = decodeURIComponent(uri.slice(PROFILE_PREFIX.length, -PROFILE_SUFFIX.length));
    if (!SYMBOL.test(symbol)) throw new ValidationError(`not a symbol: ${clientText(symbol)}`);
    const [p, q] = await Promise.all([profile(t.datasets, symbol, t.ctx), quote(t.datasets, symbol, t.ctx)]);
    const { key_people: people, ...rest } = p.data;
    const text = [
      `${p.data.symbol} — ${p.data.name ?? ''} (profile as of ${p.asOf}, quote as of ${q.asOf})`,
      fields(rest),
      `key_people: ${people.map((k) => `${k.name}${k.role ? ` (${k.role})` : ''}`).join('; ') || '—'}`,
      '',
      'Quote:',
      fields(q.data),
    ].join('\n');
    return { contents: [{ uri, mimeType: 'text/plain', text }] };
  }
  throw new NotFoundError(`no such resource: ${clientText(uri, 64)}`);
}
