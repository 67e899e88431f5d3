/**
 * A secret hidden from ASCII detectors by a character that shows nothing or looks like ASCII is found
 * all the same: a zero-width space, joiner or word joiner, a soft hyphen inside a token, a full-width
 * `：` or `＝` after a password name, full-width letters. The whole secret goes (the invisible
 * characters inside it too) and the rest of the text stays as written, on the write path and in `redact`.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact/index.js';
import { databaseText } from '../../helpers/database-bytes.js';
import { tempEngram } from '../../helpers/temp.js';

const redactor = createRedactor();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const GITHUB = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const OPENAI = 'sk-proj-aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const fullWidth = (text: string): string => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
/** `text` with `mark` put in at `at`. */
const insert = (text: string, at: number, mark: string): string => text.slice(0, at) + mark + text.slice(at);

/** Texts hiding a secret: what comes before and after it (kept as written), its kind, and pieces of it (none may stay). */
const HIDDEN: { name: string; before: string; secret: string; after: string; kind: string; pieces: string[] }[] = [
  {
    name: 'zero-width space in a token',
    before: 'token ',
    secret: insert(GITHUB, 16, '\u200B'),
    after: ' leaked',
    kind: 'github-token',
    pieces: ['aB3dE5fG7hJ9', 'kL1mN3pQ5rS7tU9vW1xY3zA5'],
  },
  {
    name: 'zero-width space in its prefix',
    before: 'token ',
    secret: insert(GITHUB, 2, '\u200B'),
    after: '',
    kind: 'github-token',
    pieces: ['aB3dE5fG7hJ9kL1mN3pQ5'],
  },
  {
    name: 'soft hyphen in a key',
    before: 'key ',
    secret: insert(OPENAI, 29, '\u00AD'),
    after: ' in .env',
    kind: 'openai-key',
    pieces: ['aB3dE5fG7hJ9', 'rS7tU9vW1xY3zA5bC7dE9fG1'],
  },
  {
    name: 'zero-width joiner in an AWS key',
    before: 'id ',
    secret: 'AKIA\u200DIOSFODNN7EXAMPLQ',
    after: ' for ci',
    kind: 'aws-access-key',
    pieces: ['IOSFODNN7EXAMPLQ'],
  },
  {
    name: 'zero-width space in a JWT',
    before: 'cookie ',
    secret: insert(JWT, 21, '\u200B'),
    after: '',
    kind: 'jwt',
    pieces: ['eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'dozjgNryP4J3jVmNHl0w5N'],
  },
  {
    name: 'word joiner in a token after a byte order mark',
    before: '\uFEFF',
    secret: insert(GITHUB, 10, '\u2060'),
    after: ' ok',
    kind: 'github-token',
    pieces: ['aB3dE5', 'fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'],
  },
  {
    name: 'full-width token',
    before: 'token ',
    secret: fullWidth(GITHUB),
    after: '',
    kind: 'github-token',
    pieces: [fullWidth('kL1mN3pQ5rS7tU9vW1xY3zA5')],
  },
  { name: 'full-width colon', before: 'staging db password：', secret: 'hunter2xyz', after: '', kind: 'password', pieces: ['hunter2xyz'] },
  {
    name: 'full-width colon and a space',
    before: 'db password： ',
    secret: 'Tr0ub4dor&3xyz',
    after: ' for now',
    kind: 'password',
    pieces: ['Tr0ub4dor'],
  },
  {
    name: 'full-width equals sign',
    before: 'DB_PASSWORD＝',
    secret: 'Tr0ub4dor3xyz',
    after: '',
    kind: 'password',
    pieces: ['Tr0ub4dor3xyz'],
  },
  { name: 'full-width name', before: 'ｐａｓｓｗｏｒｄ: ', secret: 'Tr0ub4dor&3xyz', after: '', kind: 'password', pieces: ['Tr0ub4dor'] },
  {
    name: 'zero-width space in the name',
    before: 'pass\u200Bword=',
    secret: 'Tr0ub4dor3xyz',
    after: ' and go',
    kind: 'password',
    pieces: ['Tr0ub4dor3xyz'],
  },
];

describe('secrets hidden by invisible or full-width characters', () => {
  it.each(HIDDEN)('$name: the whole secret goes, the rest stays as written', ({ before, secret, after, kind, pieces }) => {
    const { text, count, kinds } = redactor.redact(`${before}${secret}${after}`);
    expect(count).toBe(1);
    expect(kinds).toEqual({ [kind]: 1 });
    expect(text.startsWith(before)).toBe(true);
    expect(text.endsWith(after)).toBe(true);
    expect(text.slice(before.length, text.length - after.length)).toBe(`[redacted:${kind}]`);
    for (const piece of pieces) expect(text).not.toContain(piece);
  });

  it('finds every credential of the corpus with an invisible character inside it or written full-width', () => {
    const turns = JSON.parse(readFileSync(new URL('../../fixtures/redact/secrets.json', import.meta.url), 'utf8')) as {
      text: string;
      secrets: string[];
    }[];
    const missed: string[] = [];
    for (const turn of turns) {
      for (const secret of turn.secrets) {
        const half = secret.length >> 1;
        for (const mark of ['\u200B', '\u00AD', '\u2060']) {
          const out = redactor.redact(turn.text.split(secret).join(insert(secret, half, mark))).text;
          if (out.includes(secret.slice(0, half)) || out.includes(secret.slice(half))) missed.push(`${JSON.stringify(mark)} ${secret}`);
        }
        if (redactor.redact(fullWidth(turn.text)).text.includes(fullWidth(secret))) missed.push(`full-width ${secret}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('leaves ordinary turns alone when written full-width or laced with invisible characters', () => {
    const ordinary = JSON.parse(readFileSync(new URL('../../fixtures/redact/ordinary.json', import.meta.url), 'utf8')) as string[];
    const laced = (text: string): string => text.replace(/(.)(.)/gs, '$1\u200B$2');
    for (const variant of [fullWidth, laced]) {
      const touched = ordinary.map(variant).filter((turn) => redactor.redact(turn).count > 0);
      expect(touched).toEqual([]);
    }
  });

  it('keeps every character of a text without secrets, and its secrets-free non-ASCII text', () => {
    for (const input of ['我对花生过敏，吃了会起疹子：真的。', 'café ½ ﬁle — “quoted” 😀\u200B', 'ｐａｓｓｗｏｒｄ： ＊＊＊＊＊＊']) {
      expect(redactor.redact(input)).toEqual({ text: input, count: 0, kinds: {} });
    }
  });
});

describe('hidden secrets on a SQLite file', () => {
  const texts = HIDDEN.map((h) => `${h.before}${h.secret}${h.after}`);

  it('the write path stores none of them and keeps the words around them', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    for (const [i, content] of texts.entries()) {
      const { id, redacted } = await t.engram.remember({ scope: 't/hidden', content, layer: 'episodic' });
      expect(redacted).toBeGreaterThanOrEqual(1);
      expect((await t.engram.get(id, { scopes: ['t/hidden'] })).content.startsWith(HIDDEN[i]?.before as string)).toBe(true);
    }
    await t.engram.close();
    const bytes = databaseText(t.path);
    for (const piece of HIDDEN.flatMap((h) => h.pieces)) expect(bytes).not.toContain(piece);
  });

  it('redact finds them in a store written without redaction, and cleans it', async () => {
    const t = await tempEngram({ redaction: { enabled: false } });
    cleanups.push(t.cleanup);
    for (const content of texts) await t.engram.remember({ scope: 't/hidden', content, layer: 'episodic' });
    const dry = await t.engram.redact({ scopes: ['t/hidden'], dryRun: true });
    expect(dry.records).toBe(texts.length);
    const report = await t.engram.redact({ scopes: ['t/hidden'] });
    expect(report.records).toBe(texts.length);
    expect(report.kinds).toMatchObject(Object.fromEntries(HIDDEN.map((h) => [h.kind, expect.any(Number) as unknown])));
    expect((await t.engram.redact({ scopes: ['t/hidden'], dryRun: true })).records).toBe(0);
    await t.engram.close();
    const bytes = databaseText(t.path);
    for (const piece of HIDDEN.flatMap((h) => h.pieces)) expect(bytes).not.toContain(piece);
  });

  it('redact also cleans the copies the sleep cycle made of a hidden password, in records and in edges', async () => {
    const t = await tempEngram({ redaction: { enabled: false } });
    cleanups.push(t.cleanup);
    const scope = 't/hidden-derived';
    await t.engram.remember(
      Array.from({ length: 12 }, (_, i) => ({
        scope,
        capture: true,
        content: `user: the staging db password：Tr0ub4dor3xyz works for the shop replica (try ${i}).`,
        importance: 0.9,
        action: { tool: 'psql', args: { password: 'Tr0ub4dor3xyz' } },
        outcome: { success: i % 2 === 0 },
      })),
    );
    await t.engram.processJobs();
    await t.engram.consolidate({ scope });
    // the cycle made copies no detector reads as a password: a concept named by it, edges naming that concept
    const derived = (await t.engram.store.listMemories({ scopes: [scope], limit: 1000 })).filter((r) => r.layer !== 'episodic');
    expect(derived.some((r) => r.content === 'tr0ub4dor3xyz')).toBe(true);
    const report = await t.engram.redact({ scopes: [scope] });
    expect(report.edges).toBeGreaterThan(0);
    await t.engram.close();
    expect(databaseText(t.path).toLowerCase()).not.toContain('tr0ub4dor3xyz');
  });
});
