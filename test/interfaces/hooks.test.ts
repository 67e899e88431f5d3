/**
 * The Claude Code hooks in-process, fed the JSON Claude Code sends (test/fixtures/claude-code/) and
 * opening the store themselves (no server): transcript parsing, idempotent ingestion with a cursor
 * (a state document of the scope),
 * the context block on a prompt, and session end.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engram, ManualClock } from '../../src/index.js';
import { cursorKey } from '../../src/interfaces/hooks/handlers.js';
import { parseHookInput } from '../../src/interfaces/hooks/hook-input.js';
import { runHook, type HookEvent } from '../../src/interfaces/hooks/run-hook.js';
import { parseTranscript, readTranscript } from '../../src/interfaces/hooks/transcript.js';
import { hookStdin, placeTranscript, SESSION_ID } from '../helpers/claude-code.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';
const FIXTURE = new URL('../fixtures/claude-code/transcript.jsonl', import.meta.url);

let dir: string;
let cleanup: () => void;
let db: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'engram.db');
});
afterEach(() => cleanup());

function hook(event: HookEvent, stdin: string, scopes = [SCOPE]) {
  return runHook(event, stdin, { scopes, db, openEngine: () => Engram.open({ path: db, embedder: 'hash' }) });
}

async function episodes(): Promise<{ content: string; provenance: { sources: unknown[] }; tags: string[] }[]> {
  const engram = await Engram.open({ path: db, embedder: 'hash' });
  try {
    const records = await engram.store.listMemories({ scopes: [SCOPE], layers: ['episodic'], limit: 100 });
    return records.map((r) => ({ content: r.content, provenance: r.provenance, tags: r.tags }));
  } finally {
    await engram.close();
  }
}

async function dropCursor(): Promise<void> {
  const engram = await Engram.open({ path: db, embedder: 'hash' });
  try {
    expect(await engram.store.getState(SCOPE, cursorKey(SESSION_ID))).toMatchObject({ value: { lastUuid: expect.any(String) } });
    await engram.store.transaction((tx) => tx.deleteState(SCOPE, cursorKey(SESSION_ID)));
  } finally {
    await engram.close();
  }
}

describe('transcript', () => {
  it('keeps user text and assistant text; drops tool calls and results, thinking, sidechains, meta and command echoes', () => {
    const turns = parseTranscript(readFileSync(FIXTURE, 'utf8'));
    expect(turns).toEqual([
      {
        uuid: 'a0000000-0000-4000-8000-000000000001',
        role: 'user',
        text: 'Our deploy target moved from staging to production last week; remember that.',
        timestamp: '2025-09-01T10:00:00.000Z',
      },
      {
        uuid: 'a0000000-0000-4000-8000-000000000003',
        role: 'assistant',
        text: 'Noted: the shop now deploys to production. Let me check the deploy script.',
        timestamp: '2025-09-01T10:00:03.000Z',
      },
      {
        uuid: 'a0000000-0000-4000-8000-000000000006',
        role: 'assistant',
        text: 'The script already rsyncs to the production host prod:/srv/shop.',
        timestamp: '2025-09-01T10:00:07.000Z',
      },
    ]);
  });

  it('skips a half-written last line', () => {
    const text = `${readFileSync(FIXTURE, 'utf8')}{"type":"user","message":{"role":"user","content":"half`;
    expect(parseTranscript(text)).toHaveLength(3);
  });

  it('reads a file in pieces as parseTranscript reads its text (CRLF, over 1 MiB); a missing file has no turns', async () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const crlf = join(dir, 'crlf.jsonl');
    writeFileSync(crlf, text.replaceAll('\n', '\r\n'));
    expect(await readTranscript(fileURLToPath(FIXTURE))).toEqual(parseTranscript(text));
    expect(await readTranscript(crlf)).toEqual(parseTranscript(text));
    expect(await readTranscript(join(dir, 'none.jsonl'))).toEqual([]);
    // over 1 MiB: lines cross the pieces it reads, and the last line has no newline
    const lines = text.trim().split('\n');
    const many = Array.from({ length: 2_000 }, (_, i) => lines.map((l) => l.replaceAll(/"uuid":"([^"]+)"/g, `"uuid":"$1-${i}"`))).flat();
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, many.join('\n'));
    const turns = await readTranscript(big);
    expect(turns).toEqual(parseTranscript(many.join('\n')));
    expect(turns).toHaveLength(3 * 2_000);
  });

  it('skips a line that is not UTF-8 as it skips one that is not JSON, and reads multi-byte text across its 1 MiB pieces', async () => {
    const turn = (uuid: string, text: string) => `${JSON.stringify({ type: 'user', uuid, message: { role: 'user', content: text } })}\n`;
    const latin1 = Buffer.from(turn('u2', 'Café au lait'), 'latin1'); // é as the lone byte 0xe9
    expect(latin1.includes(0xe9)).toBe(true);
    const file = join(dir, 'mixed.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from(turn('u1', 'Bonjour, ça va ?')), latin1, Buffer.from(turn('u3', 'Grüße 🙂'))]));
    expect((await readTranscript(file)).map((t) => [t.uuid, t.text])).toEqual([
      ['u1', 'Bonjour, ça va ?'],
      ['u3', 'Grüße 🙂'],
    ]);
    // 'é' (two bytes) repeated so that the 1 MiB pieces cut characters in two: each still reads whole
    const long = join(dir, 'long.jsonl');
    writeFileSync(long, turn('u4', 'é'.repeat(150_000)).repeat(8));
    const turns = await readTranscript(long);
    expect(turns).toHaveLength(8);
    for (const t of turns) expect(t.text).toBe('é'.repeat(150_000));
  });

  it('refuses a transcript_path that is a folder or a device, naming it, without reading it', async () => {
    const paths = [dir, ...(existsSync('/dev/zero') ? ['/dev/zero'] : [])];
    for (const path of paths) {
      const error = (await readTranscript(path).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code: string; message: string } | undefined;
      expect(error?.code, path).toBe('INVALID_INPUT');
      expect(error?.message).toContain(`transcript_path ${path} cannot be read`);
    }
  });
});

describe('hook input', () => {
  it('reads the fields Claude Code sends and rejects what is not a hook input', () => {
    expect(parseHookInput(hookStdin('user-prompt-submit', '/tmp/t.jsonl'))).toEqual({
      session_id: SESSION_ID,
      transcript_path: '/tmp/t.jsonl',
      cwd: '/home/dev/shop',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Where do we deploy the shop now?',
    });
    expect(() => parseHookInput('not json')).toThrow(/stdin was not JSON/);
    expect(() => parseHookInput('{"prompt":"hi"}')).toThrow(/no "session_id"/);
  });
});

describe('stop hook', () => {
  it("stores the turns with the user's wall clock (--time-zone, else the machine's zone): their relative dates are days of it", async () => {
    const transcript = placeTranscript(dir);
    const stored = await runHook('stop', hookStdin('stop', transcript), {
      scopes: [SCOPE],
      db,
      timeZone: 'Asia/Kolkata',
      openEngine: () => Engram.open({ path: db, embedder: 'hash' }),
    });
    expect(stored.detail).toMatchObject({ stored: 3 });
    const engram = await Engram.open({ path: db, embedder: 'hash' });
    try {
      const records = await engram.store.listMemories({ scopes: [SCOPE], layers: ['episodic'], limit: 100 });
      expect(records.map((r) => r.data.wallClock)).toEqual([0, 1, 2].map(() => ({ timeZone: 'Asia/Kolkata' })));
    } finally {
      await engram.close();
    }
    const before = process.env.TZ;
    process.env.TZ = 'America/Chicago';
    try {
      placeTranscript(dir, 'transcript-more.jsonl');
      await hook('stop', hookStdin('stop', transcript));
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
    const later = await Engram.open({ path: db, embedder: 'hash' });
    try {
      const clocks = (await later.store.listMemories({ scopes: [SCOPE], layers: ['episodic'], limit: 100 })).map((r) => r.data.wallClock);
      expect(clocks).toContainEqual({ timeZone: 'America/Chicago' });
    } finally {
      await later.close();
    }
  });

  it('stores each new turn once, with source refs, even when it fires again or loses its cursor', async () => {
    const transcript = placeTranscript(dir);
    const first = await hook('stop', hookStdin('stop', transcript));
    expect(first.detail).toMatchObject({ stored: 3, unchanged: 0 });
    const again = await hook('stop', hookStdin('stop', transcript));
    expect(again.detail).toMatchObject({ stored: 0, unchanged: 0 });

    await dropCursor(); // cursor lost: the write path's source key still holds
    const noCursor = await hook('stop', hookStdin('stop', transcript));
    expect(noCursor.detail).toMatchObject({ stored: 0, unchanged: 3 });

    placeTranscript(dir, 'transcript-more.jsonl');
    const later = await hook('stop', hookStdin('stop', transcript));
    expect(later.detail).toMatchObject({ stored: 2, unchanged: 0 });

    const stored = await episodes();
    expect(stored).toHaveLength(5);
    expect(stored.map((e) => e.content)).toContain('user: Great. Also, the staging server will be shut down in October.');
    expect(stored[0]?.provenance.sources).toEqual([
      { system: 'claude-code', conversationId: SESSION_ID, messageId: 'a0000000-0000-4000-8000-000000000001' },
    ]);
    expect(stored[0]?.tags).toEqual(['claude-code', 'user']);
  });

  it('without a transcript stores nothing and says why', async () => {
    const outcome = await hook('stop', JSON.stringify({ session_id: SESSION_ID, hook_event_name: 'Stop' }));
    expect(outcome.detail).toMatchObject({ stored: 0, skipped: 'no transcript_path' });
  });

  it('needs a scope', async () => {
    await expect(hook('stop', hookStdin('stop', placeTranscript(dir)), [])).rejects.toThrow(/needs a scope/);
  });
});

describe('user-prompt-submit hook', () => {
  it('prints the memory context for the prompt, and nothing when memory is empty', async () => {
    const transcript = placeTranscript(dir);
    const empty = await hook('user-prompt-submit', hookStdin('user-prompt-submit', transcript));
    expect(empty.stdout).toBe('');
    const engram = await Engram.open({ path: db, embedder: 'hash' });
    await engram.remember({ scope: SCOPE, content: 'The shop deploys to production at prod:/srv/shop.', layer: 'semantic' });
    await engram.remember({ scope: SCOPE, content: 'Always run the smoke tests after a deploy.', layer: 'procedural' });
    await engram.close();
    const outcome = await hook('user-prompt-submit', hookStdin('user-prompt-submit', transcript));
    expect(outcome.stdout).toMatch(/^<engram-memory>\n[\s\S]*<\/engram-memory>$/);
    expect(outcome.stdout).toContain('The shop deploys to production at prod:/srv/shop.');
    expect(outcome.stdout).toContain('Always run the smoke tests after a deploy.');
    expect(outcome.detail).toMatchObject({ via: expect.stringMatching(/^(context|recall)$/), server: null });
  });

  it('reads the prompt\'s dates on the user\'s wall clock: "yesterday" at 00:30 in India is the Indian yesterday', async () => {
    // 19:00 UTC on 10 March 2024 is 00:30 on 11 March at UTC+05:30
    const clock = new ManualClock(Date.parse('2024-03-10T19:00:00Z'));
    // the hash embedder's vectors mean nothing: without its channel only the dates pick what is shown
    const open = () => Engram.open({ path: db, embedder: 'hash', clock, recall: { semanticWeight: 0 } });
    const engram = await open();
    await engram.remember([
      { scope: SCOPE, content: 'Fixed the checkout bug in the cart page.', occurredAt: '2024-03-10T12:00:00Z' }, // 17:30 on 10 March in India
      { scope: SCOPE, content: 'Renamed the billing module to invoices.', occurredAt: '2024-03-09T10:00:00Z' }, // 15:30 on 9 March in India
    ]);
    await engram.close();
    const promptStdin = (prompt: string): string =>
      JSON.stringify({ ...(JSON.parse(hookStdin('user-prompt-submit', placeTranscript(dir))) as Record<string, unknown>), prompt });
    const ask = (timeZone: string) =>
      runHook('user-prompt-submit', promptStdin('what did we do yesterday'), {
        scopes: [SCOPE],
        db,
        timeZone,
        openEngine: open,
      });
    const local = (await ask('Asia/Kolkata')).stdout;
    expect(local).toContain('Fixed the checkout bug');
    expect(local).not.toContain('Renamed the billing module');
    const utc = (await ask('UTC')).stdout;
    expect(utc).toContain('Renamed the billing module');
    expect(utc).not.toContain('Fixed the checkout bug');
  });
});

describe('session-start and pre-compact hooks', () => {
  it('session-start gives rules and profile as additionalContext; nothing when there are none', async () => {
    const input = JSON.stringify({
      session_id: SESSION_ID,
      transcript_path: '/nowhere.jsonl',
      cwd: '/home/dev/shop',
      hook_event_name: 'SessionStart',
      source: 'startup',
      model: 'claude-sonnet-4-5',
    });
    const engram = await Engram.open({ path: db, embedder: 'hash' });
    await engram.remember({ scope: SCOPE, content: 'The shop deploys on Fridays.', layer: 'episodic' });
    await engram.close();
    expect((await hook('session-start', input, [SCOPE, 'dev/users/ann'])).stdout).toBe('');
    const again = await Engram.open({ path: db, embedder: 'hash' });
    await again.remember([
      { scope: SCOPE, content: 'Always run the smoke tests after a deploy.', layer: 'procedural', priority: 3 },
      { scope: SCOPE, content: 'Never push to main directly.', layer: 'procedural', priority: 9 },
      { scope: 'dev/users/ann', content: 'Ann prefers short answers.', layer: 'semantic' },
      { scope: SCOPE, content: 'The shop uses Postgres 16.', layer: 'semantic' },
    ]);
    await again.close();
    const outcome = await hook('session-start', input, [SCOPE, 'dev/users/ann']);
    const output = JSON.parse(outcome.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(output.hookSpecificOutput.additionalContext).toBe(
      '<engram-memory>\n## Rules\n- Never push to main directly. (priority 9)\n- Always run the smoke tests after a deploy. (priority 3)\n\n## About the user\n- Ann prefers short answers.\n</engram-memory>',
    );
    expect(outcome.detail).toMatchObject({ scope: SCOPE, rules: 2, profile: 1, server: null });
  });

  it('pre-compact stores the turns about to be compacted, once, sharing the cursor with stop', async () => {
    const transcript = placeTranscript(dir);
    const preCompact = JSON.stringify({
      session_id: SESSION_ID,
      transcript_path: transcript,
      cwd: '/home/dev/shop',
      permission_mode: 'default',
      hook_event_name: 'PreCompact',
      trigger: 'auto',
      custom_instructions: '',
    });
    expect((await hook('pre-compact', preCompact)).detail).toMatchObject({ stored: 3 });
    expect((await hook('stop', hookStdin('stop', transcript))).detail).toMatchObject({ stored: 0 });
    placeTranscript(dir, 'transcript-more.jsonl');
    expect((await hook('pre-compact', preCompact)).detail).toMatchObject({ stored: 2 });
    expect(await episodes()).toHaveLength(5);
  });
});

describe('session-end hook', () => {
  it('stores the remaining turns, then ends the session', async () => {
    const transcript = placeTranscript(dir);
    const outcome = await hook('session-end', hookStdin('session-end', transcript));
    expect(outcome.detail).toMatchObject({ stored: 3 });
    expect(outcome.detail.report).toMatchObject({ scope: SCOPE, trigger: 'session-end', phases: expect.any(Array) });
    // Consolidation may compress old turns into new records that keep the source: count messages, not rows.
    const messages = new Set((await episodes()).flatMap((e) => e.provenance.sources.map((s) => (s as { messageId?: string }).messageId)));
    expect(messages.size).toBe(3);
  });
});
