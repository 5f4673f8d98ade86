import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseToken } from '../../../src/exchange/parsers/token.ts';
import { page } from './html.ts';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

describe('parseToken', () => {
  it('reads _k from window.__ps', () => {
    assert.equal(parseToken(page('<p>hi</p>')), TOKEN);
    assert.equal(parseToken(`<script>window.__ps = { "_k" : "${TOKEN}" };</script>`), TOKEN);
    assert.equal(parseToken(`<script>window.__ps={_k:'${TOKEN}',rv:'1'}</script>`), TOKEN);
  });

  it('is null when absent or malformed', () => {
    assert.equal(parseToken('<html><body>no token</body></html>'), null);
    assert.equal(parseToken('<script>window.__ps = {"lc":"en","rv":"1"};</script>'), null);
    assert.equal(parseToken('<script>window.__ps = {"_k":"short"};</script>'), null);
    assert.equal(parseToken('<script>window.__ps = {"_k":"has spaces in it ......"};</script>'), null);
    assert.equal(parseToken(`<script>var other = {"_k":"${TOKEN}"};</script>`), null);
    assert.equal(parseToken(''), null);
  });

  it('never throws and returns a well-formed token or null', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, inner) => {
        const token = parseToken(`${before}<script>window.__ps = {"_k":"${inner}"};</script>`);
        assert.ok(token === null || /^[A-Za-z0-9_-]{16,}$/.test(token));
      }),
    );
  });
});
