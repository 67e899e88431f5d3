/**
 * The coding-agent loop with the real default model (bge-small-en-v1.5) on a real SQLite store: "we use
 * pnpm" and, later, "we switched to bun" captured as turns. The bun claim ranks first for the question,
 * and the pnpm claim is superseded, so default reads leave it out.
 */
import { homedir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, type Engram } from '../../../src/index.js';
import { hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import { tempEngram } from '../../helpers/temp.js';
import { PROJECT_FACTS } from '../../helpers/project-facts.js';

const BGE = 'bge-small-en-v1.5';
const installed = hasModelFiles(resolveModelCacheDir(process.env, homedir()), BGE);
const SCOPE = 'acme/projects/web';
const DAY = 86_400_000;

describe.skipIf(!installed && process.env.CI !== 'true')('capture with the default model', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  const clock = new ManualClock(Date.parse('2026-03-02T09:00:00Z'));
  const turn = (messageId: string, role: string, text: string) => ({
    scope: SCOPE,
    content: `${role}: ${text}`,
    capture: true,
    tags: [role],
    source: { system: 'claude-code', conversationId: messageId.split('/')[0] as string, messageId },
  });

  beforeAll(async () => {
    ctx = await tempEngram({ embedder: BGE, clock, workers: 1 });
    engram = ctx.engram;
  }, 120_000);
  afterAll(async () => ctx?.cleanup());

  it('the switch supersedes the old tool and ranks first', async () => {
    const first = await engram.remember([
      turn('s1/1', 'user', 'We use pnpm. Can you add a lint script to package.json?'),
      turn('s1/2', 'assistant', 'Done: I added "lint": "eslint ." to the scripts. You could also use pnpm workspaces later.'),
      turn('s1/3', 'user', 'Thanks. Our CI runs on GitHub Actions.'),
    ]);
    const pnpm = first[0]?.claims?.[0]?.id as string;
    expect(first.map((r) => r.claims?.length)).toEqual([1, 0, 1]);
    clock.advance(9 * DAY);
    const later = await engram.remember([turn('s2/1', 'user', 'We switched to bun last week, so use bun commands from now on.')]);
    expect(later[0]?.claims).toEqual([{ id: expect.any(String), action: 'superseded', superseded: [pnpm] }]);
    const bun = later[0]?.claims?.[0]?.id as string;

    const recalled = await engram.recall('which package manager do we use?', { scopes: [SCOPE], k: 5 });
    expect(recalled.hits[0]?.id).toBe(bun);
    expect(recalled.hits.map((h) => h.id)).not.toContain(pnpm);
    const facts = await engram.recall('package manager', { scopes: [SCOPE], layers: ['semantic'], k: 10 });
    expect(facts.hits.map((h) => h.content)).toEqual(expect.arrayContaining(['We switched to bun last week.']));
    expect(facts.hits.map((h) => h.id)).not.toContain(pnpm);
    const [old] = await engram.store.getMemories([pnpm], [SCOPE]);
    expect(old?.status).toBe('superseded');
  }, 120_000);

  it('the switch finds the old tool however many other claims the scope holds', async () => {
    const scope = 'acme/projects/api';
    const say = (messageId: string, text: string) => engram.remember({ ...turn(messageId, 'user', text), scope });
    const first = await say('s3/1', 'We use pnpm for package management.');
    const pnpm = first.claims?.[0]?.id as string;
    const others = [...PROJECT_FACTS];
    for (const [i, text] of others.entries()) await say(`s3/${i + 2}`, text);
    clock.advance(DAY);
    const later = await say('s4/1', 'We switched to bun last week.');
    expect(later.claims).toEqual([{ id: expect.any(String), action: 'superseded', superseded: [pnpm] }]);
  }, 120_000);
});
