/**
 * A secret used as an object key (a token as a name in `properties`, an argument named by one) is
 * redacted like one in a value: the key becomes its placeholder, and two keys that redact alike both stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempEngram } from '../../helpers/temp.js';

const TOKEN = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const OTHER = 'ghp_zZ9yY8xX7wW6vV5uU4tT3sS2rR1qQ0pP9oO8';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('redaction of object keys', () => {
  it('replaces a secret in a key, keeps both of two keys that redact alike, and leaves short keys alone', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    const { id, redacted } = await t.engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The CI runner credentials are registered.',
      name: 'ci runner',
      properties: { [TOKEN]: 'primary', [OTHER]: 'backup', region: 'eu' },
    });
    expect(redacted).toBe(2);
    const stored = JSON.stringify((await t.engram.store.getMemories([id], ['t/a']))[0]?.data);
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain(OTHER);
    const properties = (await t.engram.get(id, { scopes: ['t/a'] })).properties as Record<string, unknown>;
    expect(Object.values(properties).sort()).toEqual(['backup', 'eu', 'primary']);
    expect(properties.region).toBe('eu');
    expect(Object.keys(properties).filter((k) => k.startsWith('[redacted:github-token]'))).toHaveLength(2);
  });
});
