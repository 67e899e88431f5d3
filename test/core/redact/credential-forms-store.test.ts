/**
 * Common credential forms in ordinary turns, written to a real SQLite file: none of the secret reaches
 * the file, and the prose around it stays; an ordinary turn that only looks like one is stored whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databaseText } from '../../helpers/database-bytes.js';
import { tempEngram } from '../../helpers/temp.js';

const SCOPE = 't/forms';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Turns, each with the pieces of its secret that must not be stored and the words after it that must. */
const TURNS: { text: string; secret: string[]; kept: string }[] = [
  { text: 'run it with PGPASSWORD=Vn4Rw8Kx2Jq6 psql -h db.internal -U app shop', secret: ['Vn4Rw8Kx2Jq6'], kept: 'psql -h db.internal' },
  { text: 'the queue runs with RABBITMQ_DEFAULT_PASS=Lt7Hc3Zp9Wd5 in compose', secret: ['Lt7Hc3Zp9Wd5'], kept: 'in compose' },
  {
    text: 'DATABASE_URL=postgres://app:p@sQ#w0rdZ!9@db.internal:5432/shop',
    secret: ['sQ#w0rdZ', 'w0rdZ!9'],
    kept: '@db.internal:5432/shop',
  },
  { text: 'mysql://root:Kj3Xq/Pa55wordM@10.0.0.5:3306/app is the replica', secret: ['Kj3Xq', 'Pa55wordM'], kept: 'is the replica' },
  { text: String.raw`the log shows {\"user\": \"app\", \"password\": \"Tr0ub4dor&3xq\"} twice`, secret: ['Tr0ub4dor'], kept: 'twice' },
  { text: 'PASSWORD = "Gm5Yw\\"dor3Qz" in settings.py', secret: ['Gm5Yw', 'dor3Qz'], kept: 'in settings.py' },
  {
    text: 'key pasted cut short:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Wq3Zr8Xv6Bn0Lk3H\nJ7Gf5Ds9Pa1Q',
    secret: ['Wq3Zr8Xv6Bn0Lk3H', 'J7Gf5Ds9Pa1Q'],
    kept: 'key pasted cut short',
  },
];

/** Ordinary turns that must be stored whole. */
const ORDINARY = [
  'How do I tell a PEM key? It starts with -----BEGIN PRIVATE KEY----- so my script greps for that line, then checks the file mode is 600 and prints OK.',
];

describe('common credential forms on a SQLite file', () => {
  it('stores none of the secret and keeps the rest of the turn', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    for (const turn of TURNS) {
      const { id, redacted } = await t.engram.remember({ scope: SCOPE, content: turn.text });
      expect(redacted).toBeGreaterThanOrEqual(1);
      expect((await t.engram.get(id, { scopes: [SCOPE] })).content).toContain(turn.kept);
    }
    for (const content of ORDINARY) {
      const { id, redacted } = await t.engram.remember({ scope: SCOPE, content });
      expect(redacted ?? 0).toBe(0);
      expect((await t.engram.get(id, { scopes: [SCOPE] })).content).toBe(content);
    }
    await t.engram.close();
    const bytes = databaseText(t.path);
    for (const turn of TURNS) for (const piece of turn.secret) expect(bytes).not.toContain(piece);
  });
});
