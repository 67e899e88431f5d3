/**
 * The hook token of `engram serve`: a loopback call to /hooks carrying the secret of the discovery
 * file needs no API key; without it (or with a wrong one) a keyed server still refuses, and the token
 * opens nothing but /hooks.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import { createServeApp } from '../../src/interfaces/cli/serve/serve-app.js';
import { tempEngram } from '../helpers/temp.js';

const TOKEN = 'tok_0123456789abcdefghijklmnopqrstuv';
let engram: Engram;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ engram, cleanup } = await tempEngram());
});
afterEach(async () => cleanup());

describe('hook token', () => {
  it('lets a loopback hook in without a key once keys exist; nothing else', async () => {
    const keys = new ApiKeys(engram.store);
    const { key } = await keys.create({ tenant: 'acme' });
    const app = createServeApp({ engram, scopes: [], auth: 'auto', keys, hookToken: TOKEN });
    const body = JSON.stringify({ scope: 'acme/projects/shop', sessionId: 's1' });
    const post = (path: string, headers: Record<string, string>) =>
      app.request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post('/hooks/cursor', {})).status).toBe(401);
    expect((await post('/hooks/cursor', { 'x-engram-hook-token': `${TOKEN}x` })).status).toBe(401);
    expect((await post('/hooks/cursor', { 'x-engram-hook-token': TOKEN })).status).toBe(200);
    expect((await post('/hooks/cursor', { authorization: `Bearer ${key}` })).status).toBe(200);
    // not from this machine: the token does not stand in for a key
    const remote = await app.request('http://engram.example.com/hooks/cursor', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-hook-token': TOKEN },
      body,
    });
    expect(remote.status).toBeGreaterThanOrEqual(400);
    // the API itself still wants the key
    const api = await app.request('http://127.0.0.1/v1/memories', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-hook-token': TOKEN },
      body: JSON.stringify({ scope: 'acme/x', content: 'hi' }),
    });
    expect(api.status).toBe(401);
  });
});
