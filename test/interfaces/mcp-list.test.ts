/**
 * `memory_list` through the SDK's own client: concise pages of what is stored, within the server's
 * scopes, paged by cursor; agents get no purge tool (people purge, agents forget).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callOk, inMemoryClient, textOf } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/users/alice';
const SHARED = 'acme/shared';

let env: Awaited<ReturnType<typeof tempEngram>>;
let client: Client;
let close: () => Promise<void>;

beforeEach(async () => {
  env = await tempEngram();
  await env.engram.remember([
    { scope: SCOPE, content: 'Alice opened the editor.', tags: ['editor'] },
    { scope: SCOPE, layer: 'semantic', content: 'Alice prefers dark mode.' },
    { scope: SHARED, layer: 'procedural', content: 'Always answer briefly.' },
    { scope: 'globex/x', content: 'Another tenant keeps this.' },
  ]);
  ({ client, close } = await inMemoryClient(env.engram, [SCOPE, SHARED]));
});
afterEach(async () => {
  await close();
  await env.cleanup();
});

it('lists concisely within the server scopes, filters, and pages by cursor', async () => {
  const all = await callOk<{ items: Record<string, unknown>[]; nextCursor: string | null }>(client, 'memory_list', {});
  expect(all.items.map((i) => i.content).sort()).toEqual([
    'Alice opened the editor.',
    'Alice prefers dark mode.',
    'Always answer briefly.',
  ]);
  expect(Object.keys(all.items[0]!).sort()).toEqual([
    'content',
    'id',
    'importance',
    'layer',
    'recordedAt',
    'scope',
    'status',
    'tags',
    'validFrom',
    'validTo',
  ]);
  expect(all.nextCursor).toBeNull();
  const semantic = await callOk<{ items: { content: string }[] }>(client, 'memory_list', { scope: SCOPE, layers: ['semantic'] });
  expect(semantic.items.map((i) => i.content)).toEqual(['Alice prefers dark mode.']);
  expect((await callOk<{ items: unknown[] }>(client, 'memory_list', { tag: 'editor' })).items).toHaveLength(1);
  const first = await call(client, 'memory_list', { limit: 2 });
  const page = first.structuredContent as { items: { id: string }[]; nextCursor: string };
  expect(page.items).toHaveLength(2);
  expect(textOf(first)).toContain(`cursor "${page.nextCursor}"`);
  const second = await callOk<{ items: { id: string }[]; nextCursor: string | null }>(client, 'memory_list', {
    limit: 2,
    cursor: page.nextCursor,
  });
  expect(second.items).toHaveLength(1);
  expect(second.nextCursor).toBeNull();
  expect(new Set([...page.items, ...second.items].map((i) => i.id)).size).toBe(3);
});

it('refuses scopes outside the server and bad arguments, and offers no purge', async () => {
  const denied = await call(client, 'memory_list', { scope: 'globex/x' });
  expect(denied.isError).toBe(true);
  expect(textOf(denied)).toMatch(/not open to this server/);
  const bad = await call(client, 'memory_list', { limit: 1000 });
  expect(bad.isError).toBe(true);
  const tampered = await call(client, 'memory_list', { cursor: 'bm90LWEtY3Vyc29y' });
  expect(tampered.isError).toBe(true);
  expect(textOf(tampered)).toMatch(/cursor/);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('memory_list');
  expect(tools.map((t) => t.name).some((n) => n.includes('purge'))).toBe(false);
});
