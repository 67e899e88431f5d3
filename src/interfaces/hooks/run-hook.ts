/**
 * `engram hooks <event>`: reads the hook JSON on stdin, talks to a running `engram serve` when there
 * is one (fast: no model or store to load), else opens the store itself. Loads the engine lazily so
 * the server path stays light.
 */
import type { Engram } from '../../engram.js';
import { EngramError } from '../../core/errors.js';
import { readDiscovery, removeDiscovery, type ServerInfo } from './discovery.js';
import { ConnectionError, postJson } from './http-client.js';
import { parseHookInput, type HookInput } from './hook-input.js';
import { promptQuery } from './prompt-query.js';
import { IngestTotal, ingestBatches } from './ingest-batches.js';
import { readSessionCwd, readTranscript, turnsAfter } from './transcript.js';
import { resolveScopes } from './scope-template.js';
import { machineWallClock, type MachineWallClock } from '../machine-wall-clock.js';

/**
 * Context budget of the prompt hook: the engine's 50 ms default is for warm in-process calls; a hook
 * may hit a cold engine, and Claude Code waits for it anyway (the goal is the whole hook ≤ 500 ms).
 */
export const DEFAULT_HOOK_BUDGET_MS = 150;

export const HOOK_EVENTS = ['session-start', 'user-prompt-submit', 'stop', 'pre-compact', 'session-end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface HookOptions {
  /** Explicit scopes: the first is where turns are stored; all are read for context. They win over `template`. */
  scopes: string[];
  /** A scope template filled per call from the hook's `cwd`, e.g. `{tenant}/projects/{repo}`. */
  template?: string;
  tenant?: string;
  /** The user's scope: read for context, and where answers to clarifying questions that are facts land. */
  userScope?: string;
  db: string;
  /** Server base URL (explicit: no fallback to the local store when it fails). */
  url?: string;
  apiKey?: string;
  budgetMs?: number;
  maxTokens?: number;
  /** IANA time zone the prompt's dates ("yesterday") are read in; default: this machine's, the user's own. */
  timeZone?: string;
  /** Opens the engine for the local path (the CLI's own opener, with its flags and env). */
  openEngine: () => Promise<Engram>;
  /** Starts a background server when none is found (its discovery entry, or null when none came up in time). */
  startServer?: () => Promise<{ info: ServerInfo | null; started: boolean }>;
}

export interface HookOutcome {
  /** What to print on stdout (for UserPromptSubmit: the context block Claude Code adds to the prompt). */
  stdout: string;
  /** A one-line report for stderr / logs. */
  detail: Record<string, unknown>;
}

/** Runs one hook event for the JSON Claude Code sent on stdin. */
export async function runHook(event: HookEvent, stdin: string, options: HookOptions): Promise<HookOutcome> {
  const input = parseHookInput(stdin);
  // A session keeps the scope it started in: after a `cd` into a nested repository, the hook's cwd
  // would name another scope (and the cursor, which is per scope, would store the session again).
  const startCwd = input.transcript_path !== undefined ? await readSessionCwd(input.transcript_path) : undefined;
  const { writeScope, readScopes, userScope } = resolveScopes({
    scopes: options.scopes,
    ...(options.template !== undefined ? { template: options.template } : {}),
    ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
    ...(options.userScope !== undefined ? { userScope: options.userScope } : {}),
    cwd: startCwd ?? input.cwd ?? process.cwd(),
  });
  const target: IngestTarget = { scope: writeScope, ...(userScope !== undefined ? { userScope } : {}) };
  // the hook runs on the user's machine, and a server it reaches may be in another zone: dates in a
  // prompt and in the stored turns ("yesterday") are days of the user's wall clock
  const userClock: MachineWallClock = options.timeZone !== undefined ? { timeZone: options.timeZone } : machineWallClock();
  const backend = new Backend(options);
  try {
    await backend.connect();
    const server = () => ({ server: backend.usedServer, ...(backend.startedServer ? { startedServer: true } : {}) });
    switch (event) {
      case 'session-start': {
        const result = await backend.call('session-context', { scopes: readScopes });
        const text = typeof result.text === 'string' ? result.text : '';
        // Claude Code adds `additionalContext` to the session's context.
        const stdout =
          text === '' ? '' : JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
        return { stdout, detail: { scope: writeScope, rules: result.rules, profile: result.profile, ...server() } };
      }
      case 'user-prompt-submit': {
        // Cut here too, so a prompt over the server's body limits still reaches it.
        const prompt = promptQuery(input.prompt ?? '');
        if (prompt.length === 0) return { stdout: '', detail: { skipped: 'empty prompt' } };
        const result = await backend.call('prompt-context', {
          scopes: readScopes,
          prompt,
          budgetMs: options.budgetMs ?? DEFAULT_HOOK_BUDGET_MS,
          ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
          // the hook runs on the user's machine; a server it reaches may be in another zone
          ...userClock,
        });
        return {
          stdout: typeof result.text === 'string' ? result.text : '',
          detail: { scope: writeScope, via: result.via, ...server(), callMs: backend.lastCallMs },
        };
      }
      case 'stop':
      case 'pre-compact':
        // PreCompact: the turns about to be compacted are in the transcript still; the cursor makes it idempotent with Stop.
        return { stdout: '', detail: { scope: writeScope, ...(await ingest(backend, input, target, userClock)), ...server() } };
      case 'session-end': {
        const ingested = await ingest(backend, input, target, userClock);
        const ended = await backend.call('session-end', { scope: writeScope, sessionId: input.session_id });
        return { stdout: '', detail: { scope: writeScope, ...ingested, ...ended, ...server() } };
      }
    }
  } finally {
    await backend.close();
  }
}

interface IngestTarget {
  scope: string;
  userScope?: string;
}

/**
 * Stores the turns after the session's cursor (a state document of the scope) in batches; each
 * stored batch moves the cursor, so a long unstored tail (the first Stop in a long session, a lost
 * cursor) is stored whatever its size, and a failure part-way keeps what was stored: the next hook
 * goes on from there.
 */
async function ingest(backend: Backend, input: HookInput, target: IngestTarget, clock: MachineWallClock): Promise<Record<string, unknown>> {
  if (input.transcript_path === undefined) return { stored: 0, skipped: 'no transcript_path' };
  const all = await readTranscript(input.transcript_path);
  if (all.length === 0) return { stored: 0, unchanged: 0 };
  const cursor = await backend.call('cursor', { scope: target.scope, sessionId: input.session_id });
  const turns = turnsAfter(all, typeof cursor.lastUuid === 'string' ? cursor.lastUuid : undefined);
  if (turns.length === 0) return { stored: 0, unchanged: 0 };
  const total = new IngestTotal();
  for (const batch of ingestBatches(turns)) {
    total.add(await backend.call('ingest', { ...target, ...clock, sessionId: input.session_id, turns: batch }));
  }
  return total.toDetail();
}

/** A running server when there is one, else the local store (opened on first use). */
class Backend {
  #options: HookOptions;
  #engine: Engram | undefined;
  #server: KnownServer | null;
  /** Whether this hook asked for the background server already (it starts it once at most). */
  #startAsked = false;
  usedServer: string | null = null;
  /** Whether this hook started the background server. */
  startedServer = false;
  /** Wall time of the last operation (HTTP round trip, or local engine call), ms. */
  lastCallMs = 0;

  constructor(options: HookOptions) {
    this.#options = options;
    const url = options.url ?? process.env.ENGRAM_URL;
    if (url !== undefined && url !== '') this.#server = { url, explicit: true };
    else {
      const found = readDiscovery(options.db);
      this.#server = found === null ? null : discovered(found);
    }
  }

  /** Without a known server: starts the background one (when allowed) and waits for it. */
  async connect(): Promise<void> {
    if (this.#server === null) await this.#start();
  }

  /** Starts (or waits for) the background server once, when allowed. */
  async #start(): Promise<void> {
    if (this.#startAsked || this.#options.startServer === undefined) return;
    this.#startAsked = true;
    const { info, started } = await this.#options.startServer();
    if (info !== null) this.#server = discovered(info);
    this.startedServer = started;
  }

  async call(operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const start = performance.now();
    try {
      return await this.#call(operation, body);
    } finally {
      this.lastCallMs = Math.round((performance.now() - start) * 10) / 10;
    }
  }

  async #call(operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.#server !== null) {
      try {
        const result = await this.#post(this.#server, operation, body);
        this.usedServer = this.#server.url;
        return result;
      } catch (error) {
        // Only a server that is not there is bypassed; an explicit URL or a server's own answer is final.
        if (this.#server.explicit || !isConnectionFailure(error)) throw error;
        const gone = this.#server;
        this.#server = null;
        if (gone.info !== undefined && (error as ConnectionError).code === 'ECONNREFUSED') {
          // Refused, yet its pid is alive: the server died and another process has its pid. Its
          // discovery file is stale (unless a new server has replaced it meanwhile): start a server.
          removeDiscovery(this.#options.db, gone.info.pid, gone.info.url);
          await this.#start();
          if (this.#server !== null) return this.#call(operation, body);
        }
      }
    }
    const { runHookOperation } = await import('./server-routes.js');
    this.#engine ??= await this.#options.openEngine();
    return runHookOperation(this.#engine, operation, body, () => undefined);
  }

  async #post(
    server: { url: string; hookToken?: string },
    operation: string,
    body: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const base = server.url;
    const apiKey = this.#options.apiKey ?? process.env.ENGRAM_API_KEY;
    const headers: Record<string, string> = {};
    if (apiKey !== undefined && apiKey !== '') headers.authorization = `Bearer ${apiKey}`;
    // The discovered server of our own database takes its run's secret instead of a key.
    if (server.hookToken !== undefined) headers['x-engram-hook-token'] = server.hookToken;
    const response = await postJson(new URL(`/hooks/${operation}`, base), body, {
      headers,
      timeoutMs: operation === 'prompt-context' || operation === 'cursor' ? 10_000 : 120_000,
    });
    const payload = response.body as Record<string, unknown> & { error?: { code?: string; message?: string } };
    if (response.status < 200 || response.status >= 300) {
      const code = (payload.error?.code ?? 'INTERNAL') as ConstructorParameters<typeof EngramError>[0];
      throw new EngramError(code, `engram serve at ${base} answered ${response.status}: ${payload.error?.message ?? 'no message'}`);
    }
    return payload;
  }

  async close(): Promise<void> {
    await this.#engine?.close();
  }
}

/** A server the hook calls: explicit (`--url`), or found through its discovery entry (`info`). */
interface KnownServer {
  url: string;
  explicit: boolean;
  hookToken?: string;
  info?: ServerInfo;
}

function discovered(info: ServerInfo): KnownServer {
  return { url: info.url, explicit: false, info, ...(typeof info.hookToken === 'string' ? { hookToken: info.hookToken } : {}) };
}

function isConnectionFailure(error: unknown): boolean {
  return error instanceof ConnectionError;
}
