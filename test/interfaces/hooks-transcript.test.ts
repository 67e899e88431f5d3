/**
 * What the hooks take from a transcript that Claude Code wrote with text the user did not type: the
 * compaction summary, bash-mode commands and output, IDE blocks (none is the user's words); a turn cut
 * inside an emoji or holding a broken one (never refused by the engine); and the working directory a
 * session started in, which keeps its scope when the cwd moves into a nested repository.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { runHook } from '../../src/interfaces/hooks/run-hook.js';
import { parseTranscript, readSessionCwd } from '../../src/interfaces/hooks/transcript.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

let dir: string;
let cleanup: () => void;
let db: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'engram.db');
});
afterEach(() => cleanup());

/** A transcript line as Claude Code writes it. */
function entry(uuid: string, role: 'user' | 'assistant', content: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: role, uuid, sessionId: 's', timestamp: '2025-09-01T10:00:00.000Z', ...extra, message: { role, content } });
}

function stop(transcript: string, options: { cwd?: string; scopes?: string[]; template?: string } = {}) {
  const stdin = JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: options.cwd ?? dir, hook_event_name: 'Stop' });
  return runHook('stop', stdin, {
    scopes: options.scopes ?? (options.template === undefined ? [SCOPE] : []),
    ...(options.template !== undefined ? { template: options.template, tenant: 'acme' } : {}),
    db,
    openEngine: () => Engram.open({ path: db, embedder: 'hash' }),
  });
}

async function episodes(): Promise<{ scope: string; content: string }[]> {
  const engram = await Engram.open({ path: db, embedder: 'hash' });
  try {
    const scopes = [SCOPE, 'acme/projects/shop', 'acme/projects/libfoo'];
    const records = await engram.store.listMemories({ scopes, layers: ['episodic'], limit: 100 });
    return records.map((r) => ({ scope: r.scope, content: r.content }));
  } finally {
    await engram.close();
  }
}

describe('text Claude Code inserts is not the user’s', () => {
  it('skips the compaction summary and transcript-only entries', () => {
    const text = [
      entry('u1', 'user', 'We switched to bun last week.'),
      JSON.stringify({ type: 'system', subtype: 'compact_boundary', uuid: 'b1', content: 'Conversation compacted' }),
      entry('cs1', 'user', 'This session is being continued from a previous conversation.\nSummary:\n- The project uses pnpm workspaces.', {
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      }),
      entry('v1', 'user', 'We use Jest.', { isVisibleInTranscriptOnly: true }),
    ].join('\n');
    expect(parseTranscript(text).map((t) => t.uuid)).toEqual(['u1']);
  });

  it('drops bash-mode input and output and IDE blocks from user text, and a turn with nothing else', () => {
    const text = [
      entry('b1', 'user', '<bash-input>cat docs/old/SETUP.md</bash-input>'),
      entry('b2', 'user', '<bash-stdout># Setup (2019)\nWe use yarn for this project.</bash-stdout><bash-stderr></bash-stderr>'),
      entry('i1', 'user', [
        {
          type: 'text',
          text: '<ide_selection>The user selected the lines 1 to 2 from /src/legacy/README.md:\nThe billing service uses MySQL 5.7.\n\nThis may or may not be related to the current task.</ide_selection>',
        },
        { type: 'text', text: 'is this still accurate?' },
      ]),
      entry('i2', 'user', '<ide_opened_file>The user opened the file /src/a.ts in the IDE.</ide_opened_file>Rename it to b.ts.'),
      entry('i3', 'user', 'Fix this. <system-reminder>\nThe todo list is empty.\n</system-reminder>'),
      entry('i4', 'user', 'Check <ide_diagnostics>error: x is unused'), // unclosed: runs to the end
      entry('a1', 'assistant', [{ type: 'text', text: 'Bash mode wraps output in <bash-stdout> blocks.' }]),
    ].join('\n');
    expect(parseTranscript(text).map((t) => [t.uuid, t.text])).toEqual([
      ['i1', 'is this still accurate?'],
      ['i2', 'Rename it to b.ts.'],
      ['i3', 'Fix this.'],
      ['i4', 'Check'],
      ['a1', 'Bash mode wraps output in <bash-stdout> blocks.'],
    ]);
  });

  it('the stop hook stores neither the summary nor a bash command’s output as the user’s words', async () => {
    const transcript = join(dir, 'transcript.jsonl');
    writeFileSync(
      transcript,
      [
        entry('u1', 'user', 'We switched to bun last week.'),
        entry('b2', 'user', '<bash-stdout>We use yarn for this project.</bash-stdout>'),
        entry('cs1', 'user', 'Summary:\n- The project uses pnpm workspaces.', { isCompactSummary: true }),
      ].join('\n'),
    );
    expect((await stop(transcript)).detail).toMatchObject({ stored: 1 });
    expect((await episodes()).map((e) => e.content)).toEqual(['user: We switched to bun last week.']);
  });
});

describe('text the engine would refuse', () => {
  it('cuts a turn over 200,000 characters at a code point and replaces unpaired surrogates', () => {
    // the emoji straddles the cut at 199,979
    const long = 'log line ok. '.repeat(15_383).slice(0, 199_978) + '😀'.repeat(50);
    const turns = parseTranscript([entry('u1', 'user', long), entry('u2', 'user', 'broken \ud83d emoji \ude00 here')].join('\n'));
    expect(turns[0]?.text.length).toBeLessThanOrEqual(199_980);
    expect(turns[0]?.text.endsWith('…')).toBe(true);
    expect(turns[0]?.text).not.toMatch(LONE_SURROGATE);
    expect(turns[1]?.text).toBe('broken \ufffd emoji \ufffd here');
  });

  it('the stop hook stores such turns and the turns after them', async () => {
    const transcript = join(dir, 'transcript.jsonl');
    const long = 'log line ok. '.repeat(15_383).slice(0, 199_978) + '😀'.repeat(50);
    writeFileSync(
      transcript,
      `${[entry('u1', 'user', 'We use pnpm.'), entry('u2', 'user', long), entry('u3', 'user', 'half an emoji: \ud83d')].join('\n')}\n`,
    );
    expect((await stop(transcript)).detail).toMatchObject({ stored: 3 });
    appendFileSync(transcript, `${entry('u4', 'user', 'We switched to bun.')}\n`);
    expect((await stop(transcript)).detail).toMatchObject({ stored: 1 });
  });
});

describe('the scope of a session', () => {
  it('is the one it started in: the cwd of its first transcript entry', async () => {
    const transcript = join(dir, 'transcript.jsonl');
    writeFileSync(transcript, `{"type":"summary","summary":"x"}\n${entry('u1', 'user', 'hi', { cwd: '/home/dev/shop' })}\n`);
    expect(await readSessionCwd(transcript)).toBe('/home/dev/shop');
    // a first prompt longer than what is read: its cwd comes before the message
    writeFileSync(transcript, `${entry('u1', 'user', 'x'.repeat(200_000), { cwd: '/home/dev/"quoted" shop' })}\n`);
    expect(await readSessionCwd(transcript)).toBe('/home/dev/"quoted" shop');
    writeFileSync(transcript, `${entry('u1', 'user', 'the key "cwd":"/elsewhere" in a message')}\n`);
    expect(await readSessionCwd(transcript)).toBeUndefined();
    expect(await readSessionCwd(join(dir, 'none.jsonl'))).toBeUndefined();
    expect(await readSessionCwd(dir)).toBeUndefined(); // a folder
  });

  it('keeps its scope when the hook’s cwd moves into a nested repository (nothing is stored twice)', async () => {
    const shop = join(dir, 'shop');
    const nested = join(shop, 'vendor', 'libfoo');
    mkdirSync(join(shop, '.git'), { recursive: true });
    mkdirSync(join(nested, '.git'), { recursive: true });
    const transcript = join(dir, 'transcript.jsonl');
    const template = '{tenant}/projects/{repo}';
    writeFileSync(
      transcript,
      `${entry('u1', 'user', "The shop's Stripe account is the EU one.", { cwd: shop })}\n${entry('a1', 'assistant', [{ type: 'text', text: 'Noted.' }], { cwd: shop })}\n`,
    );
    expect((await stop(transcript, { cwd: shop, template })).detail).toMatchObject({ scope: 'acme/projects/shop', stored: 2 });
    // Claude ran `cd vendor/libfoo`: the entries and the hook's cwd are there now
    appendFileSync(
      transcript,
      `${entry('u2', 'user', "Now bump libfoo's version.", { cwd: nested })}\n${entry('a2', 'assistant', [{ type: 'text', text: 'Bumped libfoo to 2.1.0.' }], { cwd: nested })}\n`,
    );
    expect((await stop(transcript, { cwd: nested, template })).detail).toMatchObject({
      scope: 'acme/projects/shop',
      stored: 2,
      unchanged: 0,
    });
    const stored = await episodes();
    expect(stored).toHaveLength(4);
    expect(new Set(stored.map((e) => e.scope))).toEqual(new Set(['acme/projects/shop']));
  });

  it('without a transcript (yet) is the hook’s cwd', async () => {
    const shop = join(dir, 'shop');
    mkdirSync(join(shop, '.git'), { recursive: true });
    const outcome = await stop(join(dir, 'not-yet.jsonl'), { cwd: shop, template: '{tenant}/projects/{repo}' });
    expect(outcome.detail).toMatchObject({ scope: 'acme/projects/shop', stored: 0 });
  });
});
