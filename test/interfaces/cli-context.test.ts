/**
 * `engram context`, `engram predict` and the LLM's env configuration, by spawning the built bin.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt, json, runCli, runCliAsync } from '../helpers/cli.js';
import { startLlmStub } from '../helpers/llm-stub.js';
import { tempDir } from '../helpers/temp.js';

describe.skipIf(!binBuilt)('engram context / predict (skipped when dist/ is missing: run npm run build)', () => {
  const tmp = tempDir('engram-cli-context-');
  const db = join(tmp.dir, 'cli.db');
  const base = ['--db', db, '--embedder', 'hash'];
  const user = 'lab/users/ada';
  const shared = 'lab/shared';
  let episodeIds: string[] = [];

  afterAll(() => tmp.cleanup());

  beforeAll(() => {
    const file = join(tmp.dir, 'episodes.jsonl');
    const lines = Array.from({ length: 8 }, (_, i) =>
      JSON.stringify({
        scope: user,
        content: `Grasped the mug on the shelf (try ${i + 1}).`,
        perception: { objects: ['mug'] },
        context: { goal: 'grasp_mug' },
        action: { tool: 'graspObject' },
        outcome: { success: i !== 2 },
      }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = runCli(['remember', ...base, '--json', '--scope', user, '--file', file]);
    expect(result.status, result.stderr).toBe(0);
    expect(runCli(['remember', ...base, '--scope', shared, '--layer', 'procedural', 'Hand over mugs handle first.']).status).toBe(0);
    const listed = runCli(['recall', ...base, '--json', '--scope', user, '-k', '20', 'grasped mug shelf']);
    episodeIds = json<{ hits: { id: string }[] }>(listed).hits.map((h) => h.id);
    expect(episodeIds).toHaveLength(8);
  });

  it('predict --episode FILE.json prints the predictions (7 of 8 → 0.875, all 8 cited)', () => {
    const file = join(tmp.dir, 'forming.json');
    writeFileSync(file, JSON.stringify({ perception: { objects: ['mug'] }, context: { goal: 'grasp_mug' } }));
    const result = runCli(['predict', ...base, '--json', '--scope', user, '--episode', file]);
    expect(result.status, result.stderr).toBe(0);
    const out = json<{ predictions: { action: string; outcome: string; successProbability: number; supportingEpisodeIds: string[] }[] }>(
      result,
    );
    expect(out.predictions[0]).toMatchObject({ action: 'graspObject', outcome: 'success', successProbability: 0.875 });
    expect([...(out.predictions[0]?.supportingEpisodeIds ?? [])].sort()).toEqual([...episodeIds].sort());
  });

  it('context prints Markdown for a prompt, or the structured JSON with --json', () => {
    const args = [
      'context',
      ...base,
      '--scope',
      shared,
      '--scope',
      user,
      '--objects',
      'mug',
      '--goal',
      'grasp_mug',
      '--budget-ms',
      '2000',
      '--max-tokens',
      '800',
      'please grasp the mug',
    ];
    const text = runCli(args);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^<!-- engram context: \d+ ms of 2000 ms; rules full/);
    expect(text.stdout).toContain('## Rules\n- Hand over mugs handle first.');
    expect(text.stdout).toContain('graspObject → success (success probability 0.875');
    const structured = json<{
      budgetMs: number;
      maxTokens: number;
      tokens: number;
      parts: Record<string, { level: string; items: unknown[] }>;
    }>(runCli([...args, '--json']));
    expect(structured.budgetMs).toBe(2000);
    expect(structured.tokens).toBeLessThanOrEqual(800);
    expect(Object.keys(structured.parts)).toEqual([
      'rules',
      'profile',
      'knowledge',
      'concepts',
      'predictions',
      'episodes',
      'cautions',
      'mood',
    ]);
    expect(structured.parts.episodes?.items.length).toBeGreaterThan(0);
  });

  it('bad input exits 2 with a message that says how to fix it', () => {
    const noMessage = runCli(['context', ...base, '--scope', user]);
    expect(noMessage.status).toBe(2);
    expect(noMessage.stderr).toContain('needs a message, or a percept');
    const noFile = runCli(['predict', ...base, '--scope', user]);
    expect(noFile.status).toBe(2);
    expect(noFile.stderr).toContain('--episode FILE.json');
  });

  it('an LLM configured by env scores importance; bad env config is refused', async () => {
    const stub = await startLlmStub((r) => (r.use === 'importance' ? { content: '{"importance": 0.77}' } : { content: '{"facts": []}' }));
    try {
      const env = { ENGRAM_LLM_BASE_URL: stub.baseUrl, ENGRAM_LLM_MODEL: 'stub', ENGRAM_LLM_TIMEOUT_MS: '2000' };
      const written = await runCliAsync(
        ['remember', ...base, '--json', '--scope', user, 'We agreed to ship the gripper firmware on Monday.'],
        { env },
      );
      expect(written.status, written.stderr).toBe(0);
      const { id } = JSON.parse(written.stdout) as { id: string };
      const shown = await runCliAsync(['recall', ...base, '--json', '--scope', user, 'gripper firmware Monday'], { env: {} });
      const hit = (JSON.parse(shown.stdout) as { hits: { id: string; importance: number | null }[] }).hits.find((h) => h.id === id);
      expect(hit?.importance).toBe(0.77);
      expect(stub.requests.some((r) => r.use === 'importance' && r.body.model === 'stub')).toBe(true);
      const bad = await runCliAsync(['stats', ...base, '--scope', user], { env: { ...env, ENGRAM_LLM_USES: 'importance,telepathy' } });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('telepathy');
    } finally {
      await stub.close();
    }
  });
});
