import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockAgent } from 'undici';
import { z } from 'zod';
import { ProviderClient } from '../../src/provider/client.js';
import { defineEndpoint } from '../../src/provider/endpoint.js';
import { ProviderInputError } from '../../src/provider/errors.js';

// The client builds each URL once, without a URL parser on every call: what it signs must be
// what a URL parser (and so the provider) sees, for every value a caller can pass.
const agent = new MockAgent();
agent.disableNetConnect();
const client = (baseUrl: string) =>
  new ProviderClient({ baseUrl, auth: { kind: 'signature', apiKey: 'AK', secretKey: 'SK' }, dispatcher: agent });

const awkward = ['plain', 'two words', "!'()*~-._", 'é✓😀', '\u0000&=?#/+%', 'a%20b', '%', ''];

describe('the URL the client signs', () => {
  it('is the one a URL parser makes of base, path and query, for awkward values', () => {
    for (const base of [
      'https://api.example.test',
      'https://api.example.test/',
      'http://127.0.0.1:4010/base/',
      'https://API.Example.test:443/v',
    ]) {
      const c = client(base);
      for (const value of awkward) {
        const path = `/v3/things/${encodeURIComponent(value)}`;
        const query = { q: value, [value || 'empty']: 'x', timestamp: '1700000000000' };
        const expected = new URL(`${base.replace(/\/+$/, '')}${path}?${new URLSearchParams(query).toString()}`).href;
        assert.equal(c.buildUrl(path, query), expected, `base ${base}, value ${JSON.stringify(value)}`);
      }
      assert.equal(c.buildUrl('/v2/wallets', {}), new URL(`${base.replace(/\/+$/, '')}/v2/wallets`).href);
    }
  });

  it('refuses a path value that a URL parser would turn into another path, before sending', async () => {
    const loose = defineEndpoint({
      name: 'read thing',
      method: 'GET',
      path: '/v3/things/:id',
      params: z.object({ id: z.string() }),
      response: z.unknown(),
    });
    for (const id of ['.', '..']) {
      await assert.rejects(
        client('https://api.example.test').call(loose, { params: { id } }),
        (e: unknown) => e instanceof ProviderInputError && e.field === 'id' && /"\."/.test(e.message),
      );
    }
  });

  it('refuses a base URL whose credentials, query or fragment would be signed but not sent', () => {
    for (const base of [
      'https://u:p@api.example.test',
      'https://api.example.test/?a=1',
      'https://api.example.test/#x',
      'ftp://api.example.test',
    ]) {
      assert.throws(() => client(base), /base URL/);
    }
  });
});
