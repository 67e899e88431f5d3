/**
 * A scripted Claude Code session, as Claude Code runs the hooks: the built bin fed the hook JSON on
 * stdin exactly as Claude Code sends it, a transcript that grows turn by turn, three sessions over
 * twelve days (the transcript's timestamps), the background server the hooks start themselves, the
 * scope from the template and the hook's cwd, and the real default model (bge-small-en-v1.5).
 * It ends with the current tool choice first in the context and the replaced one out of default
 * reads, the answer to a clarifying question kept, no secret anywhere, and each message stored once.
 */
import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { discoveryPath } from '../../src/interfaces/hooks/discovery.js';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const BGE = 'bge-small-en-v1.5';
const installed = hasModelFiles(resolveModelCacheDir(process.env, homedir()), BGE);
const TOKEN = `ghp_${'R8x2'.repeat(9)}`;
const { dir, cleanup } = tempDir();
const db = join(dir, 'engram.db');
const repo = join(dir, 'shop');
const cwd = join(repo, 'packages', 'web');
const SCOPE = 'acme/projects/shop';
const USER_SCOPE = 'acme/users/alice';
const env = { ENGRAM_HOOKS_START_SERVER: '1', ENGRAM_API_KEY: '', ENGRAM_URL: '', ENGRAM_SCOPES: '' };
const flags = [
  '--scope-template',
  '{tenant}/projects/{repo}',
  '--tenant',
  'acme',
  '--user-scope',
  USER_SCOPE,
  '--db',
  db,
  '--embedder',
  BGE,
  '--idle-minutes',
  '5',
  '--verbose',
];
/** Everything the hooks printed for Claude Code. */
const printed: string[] = [];

afterAll(() => {
  try {
    process.kill((JSON.parse(readFileSync(discoveryPath(db), 'utf8')) as { pid: number }).pid, 'SIGTERM');
  } catch {
    // not running
  }
  cleanup();
}, 30_000);

/** One Claude Code session: its transcript file and the hooks Claude Code runs. */
class Session {
  readonly id: string;
  readonly transcript: string;
  #n = 0;
  #parent: string | null = null;
  #at: number;

  constructor(id: string, startsAt: string) {
    this.id = id;
    this.#at = Date.parse(startsAt);
    this.transcript = join(dir, `${id}.jsonl`);
    writeFileSync(this.transcript, '');
  }

  /** Appends a transcript entry the way Claude Code writes it (assistant text in content blocks). */
  say(role: 'user' | 'assistant', text: string): void {
    const uuid = `${this.id}-${String(++this.#n).padStart(4, '0')}`;
    this.#at += 60_000;
    const message =
      role === 'user'
        ? { role, content: text }
        : {
            id: `msg_${uuid}`,
            type: 'message',
            role,
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text }],
            stop_reason: 'end_turn',
          };
    const entry = {
      parentUuid: this.#parent,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId: this.id,
      version: '2.0.14',
      gitBranch: 'main',
      type: role,
      message,
      uuid,
      timestamp: new Date(this.#at).toISOString(),
    };
    appendFileSync(this.transcript, `${JSON.stringify(entry)}\n`);
    this.#parent = uuid;
  }

  hook(event: string, extra: Record<string, unknown> = {}): { stdout: string; detail: Record<string, unknown> } {
    const name = event.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
    const input = JSON.stringify({
      session_id: this.id,
      transcript_path: this.transcript,
      cwd,
      permission_mode: 'default',
      hook_event_name: event,
      ...extra,
    });
    const result = runCli(['hooks', name, ...flags], { input, env });
    expect(result.status, `${event}: ${result.stderr}`).toBe(0);
    printed.push(result.stdout);
    const line = result.stderr.split('\n').find((l) => l.startsWith('engram hooks ')) ?? '{}';
    return { stdout: result.stdout, detail: JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown> };
  }

  /** The user sends a prompt: UserPromptSubmit, then the assistant answers and Stop fires. */
  turn(prompt: string, reply: string): string {
    const { stdout } = this.hook('UserPromptSubmit', { prompt });
    this.say('user', prompt);
    this.say('assistant', reply);
    this.hook('Stop', { stop_hook_active: false });
    return stdout;
  }
}

describe.skipIf(!binBuilt || (!installed && process.env.CI !== 'true'))('a scripted Claude Code session over days (real model)', () => {
  it('keeps the current tool first, the answers to clarifying questions, no secret, each message once', { timeout: 600_000 }, () => {
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(cwd, { recursive: true });

    // Day 1: the project's package manager, a clarifying question, a pasted token, a compaction.
    const one = new Session('0b6a7c1e-1111-4e21-9a0c-000000000001', '2026-03-02T09:00:00Z');
    expect(one.hook('SessionStart', { source: 'startup' }).stdout).toBe('');
    one.turn('We use pnpm in this repo. Can you add a lint script to package.json?', 'Done: I added "lint": "eslint ." to the scripts.');
    one.turn(
      'Please set up tests for the web package.',
      'I can do that. Which test runner should I use for the web package, Vitest or Jest?',
    );
    one.turn('Vitest', 'Set up Vitest with a first smoke test. Should I also migrate the old Jest tests in packages/api now?');
    one.turn('No, not yet, because the release comes first.', 'Understood, I left packages/api on Jest for now.');
    one.turn(
      `Here is the deploy token ${TOKEN}, use it in the release workflow.`,
      'I stored it as a repository secret reference in the workflow instead of the file.',
    );
    const compact = one.hook('PreCompact', { trigger: 'auto', custom_instructions: '' });
    expect(compact.detail).toMatchObject({ scope: SCOPE, stored: 0 });
    one.hook('Stop', { stop_hook_active: true }); // fired again: nothing new
    const end = one.hook('SessionEnd', { reason: 'prompt_input_exit' });
    expect(end.detail).toMatchObject({ scope: SCOPE, stored: 0 });

    // A rule for the project, written by the user.
    expect(
      runCli(['remember', '--db', db, '--scope', SCOPE, '--layer', 'procedural', 'Always run the linter before committing.']).status,
    ).toBe(0);

    // Day 10: the switch, then compaction mid-session catches the turns not yet stored.
    const two = new Session('0b6a7c1e-2222-4e21-9a0c-000000000002', '2026-03-11T10:00:00Z');
    const start = two.hook('SessionStart', { source: 'startup' });
    const additional = (JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } })
      .hookSpecificOutput;
    expect(additional.hookEventName).toBe('SessionStart');
    expect(additional.additionalContext).toContain('Always run the linter before committing.');
    expect(additional.additionalContext).toMatch(/Vitest/); // the answer, as a fact about the user
    two.hook('UserPromptSubmit', { prompt: 'We switched to bun last week, so use bun commands from now on.' });
    two.say('user', 'We switched to bun last week, so use bun commands from now on.');
    two.say('assistant', 'Got it: I will use bun install and bun run from now on.');
    expect(two.hook('PreCompact', { trigger: 'manual', custom_instructions: 'keep the build steps' }).detail).toMatchObject({ stored: 2 });
    expect(two.hook('Stop', { stop_hook_active: false }).detail).toMatchObject({ stored: 0 });
    two.hook('SessionEnd', { reason: 'clear' });

    // Day 12: the question.
    const three = new Session('0b6a7c1e-3333-4e21-9a0c-000000000003', '2026-03-13T08:30:00Z');
    three.hook('SessionStart', { source: 'startup' });
    const context = three.turn('Which package manager do we use here?', 'You use bun.');
    expect(context).toContain('<engram-memory>');
    expect(context).toContain('We switched to bun last week');
    const bunAt = context.indexOf('bun');
    const pnpmAt = context.indexOf('pnpm');
    expect(pnpmAt === -1 || bunAt < pnpmAt, context).toBe(true);
    three.hook('SessionEnd', { reason: 'logout' });

    // The replaced claim is out of default reads; the current one first.
    const recalled = json<{ hits: { content: string; layer: string }[] }>(
      runCli(['recall', '--db', db, '--scope', SCOPE, '--layer', 'semantic', '--json', 'which package manager do we use?']),
    );
    expect(recalled.hits[0]?.content).toMatch(/bun/);
    expect(recalled.hits.map((h) => h.content).join('\n')).not.toMatch(/We use pnpm/);
    const history = json<{ hits: { content: string; status: string }[] }>(
      runCli(['recall', '--db', db, '--scope', SCOPE, '--layer', 'semantic', '--include-superseded', '--json', 'pnpm']),
    );
    expect(history.hits.find((h) => /pnpm/.test(h.content))?.status).toBe('superseded');

    // The clarifying answers: a fact in the user's scope, a decision with its reason in the project.
    const mine = json<{ items: { content: string; layer: string }[] }>(runCli(['list', '--db', db, '--scope', USER_SCOPE, '--json']));
    expect(mine.items.map((m) => m.content)).toContain('The test runner is Vitest.');
    const decisions = json<{ items: { content: string; tags: string[]; context?: { question?: string } }[] }>(
      runCli(['list', '--db', db, '--scope', SCOPE, '--tag', 'decision', '--json']),
    );
    expect(decisions.items.find((d) => d.content.includes('the release comes first'))?.context?.question).toMatch(
      /migrate the old Jest tests/,
    );

    // Each message once: 10 + 2 + 2 text turns, whatever fired twice.
    const stats = json<{ byLayer: Record<string, number> }>(runCli(['stats', '--db', db, '--scope', SCOPE, '--json']));
    expect(stats.byLayer.episodic).toBe(14);

    // No secret in the store (records, history, FTS index: the database files), the export or any context.
    const exported = join(dir, 'export');
    expect(runCli(['export', 'markdown', exported, '--db', db, '--scope', SCOPE]).status).toBe(0);
    const exportText = readdirSync(exported)
      .map((f) => readFileSync(join(exported, f), 'utf8'))
      .join('\n');
    expect(exportText).toContain('[redacted:github-token]');
    const fts = json<{ hits: unknown[] }>(runCli(['recall', '--db', db, '--scope', SCOPE, '--json', TOKEN]));
    expect(JSON.stringify(fts)).not.toContain(TOKEN);
    const files = readdirSync(dir)
      .filter((f) => f.startsWith('engram.db'))
      .map((f) => readFileSync(join(dir, f)).toString('latin1'));
    for (const text of [...files, exportText, ...printed]) expect(text).not.toContain(TOKEN);
    expect(files.join('')).not.toContain(TOKEN.slice(4, 24));
  });
});
