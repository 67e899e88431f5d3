/**
 * The JSON files `engram setup claude-code` merges into: each change is a function of the file's
 * current document that replaces only Engram's own entries (its MCP server, its hook commands, its
 * environment variables), so other settings survive and a second run changes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EngramError } from '../../../core/errors.js';
import { makeOutputDirectory, writeOutputFile } from '../output-files.js';

export type Json = Record<string, unknown>;

/** One file setup writes: where, whether it is meant to be committed, and how it changes the document. */
export interface FileChange {
  path: string;
  /** Shared with a team through git (`.mcp.json`, `.claude/settings.json`): never a secret or a machine path. */
  committed: boolean;
  /** What this file holds, in one line (for the printed plan). */
  role: string;
  /** Engram's part of the document (secrets masked when printed). */
  part: Json;
  apply: (doc: Json) => Json;
}

/** The hook events Engram installs and the `engram hooks` command of each. */
export const HOOK_COMMANDS: Readonly<Record<string, string>> = Object.freeze({
  SessionStart: 'session-start',
  UserPromptSubmit: 'user-prompt-submit',
  Stop: 'stop',
  PreCompact: 'pre-compact',
  SessionEnd: 'session-end',
});

/** Sets `mcpServers.engram`, keeping every other server. */
export function mergeMcpServer(server: Json): (doc: Json) => Json {
  return (doc) => ({ ...doc, mcpServers: { ...((doc.mcpServers as Json | undefined) ?? {}), engram: server } });
}

/** Adds our hook entries, replacing earlier Engram entries of the same events and keeping everyone else's. */
export function mergeHooks(ours: Json): (doc: Json) => Json {
  return (doc) => {
    const hooks = { ...((doc.hooks as Json | undefined) ?? {}) };
    for (const [event, entries] of Object.entries(ours)) {
      const existing = Array.isArray(hooks[event]) ? (hooks[event] as Json[]) : [];
      const others = existing.filter((entry) => !isEngramHook(entry, HOOK_COMMANDS[event] as string));
      hooks[event] = [...others, ...(entries as Json[])];
    }
    return { ...doc, hooks };
  };
}

/** An entry whose command runs `engram hooks <name>` (through any path to the bin, old setups included). */
function isEngramHook(entry: Json, name: string): boolean {
  const commands = Array.isArray(entry.hooks) ? (entry.hooks as Json[]).map((h) => String(h.command ?? '')) : [];
  return commands.some((command) => new RegExp(`(^|[\\s/'"])(engram|main\\.js)['"]? hooks ${name}( |$)`).test(command));
}

/** Sets variables in the document's `env` (Claude Code settings), keeping the others. */
export function mergeEnv(vars: Record<string, string>): (doc: Json) => Json {
  return (doc) => ({ ...doc, env: { ...((doc.env as Json | undefined) ?? {}), ...vars } });
}

/** Chains changes of one file. */
export function both(...changes: ((doc: Json) => Json)[]): (doc: Json) => Json {
  return (doc) => changes.reduce((d, change) => change(d), doc);
}

/** Reads a JSON object file ({} when missing); refuses a file that is not a JSON object. */
export function readJson(path: string): Json {
  if (!existsSync(path)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new EngramError('INVALID_INPUT', `${path} is not valid JSON: fix or remove it, then run setup again.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EngramError('INVALID_INPUT', `${path} does not hold a JSON object: fix or remove it, then run setup again.`);
  }
  return value as Json;
}

/** Writes the change into the file; `private` files (they may hold a key) are readable by their owner only. */
export function applyChange(change: FileChange, options: { private: boolean }): boolean {
  const before = existsSync(change.path) ? readFileSync(change.path, 'utf8') : null;
  const text = `${JSON.stringify(change.apply(readJson(change.path)), null, 2)}\n`;
  if (text === before) return false;
  makeOutputDirectory(dirname(change.path));
  writeOutputFile(change.path, text, options.private ? 0o600 : undefined);
  return true;
}

/** Adds `entry` to the project's .gitignore when the project is a git work tree and does not ignore it yet. */
export function ignoreInGit(projectDir: string, entry: string): boolean {
  if (!existsSync(join(projectDir, '.git'))) return false;
  const path = join(projectDir, '.gitignore');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (text.split(/\r?\n/).some((line) => line.trim() === entry || line.trim() === `/${entry}`)) return false;
  writeOutputFile(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${entry}\n`);
  return true;
}

/** Replaces secret values in a printed document. */
export function masked(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  return JSON.parse(
    JSON.stringify(value, (_, v: unknown) =>
      typeof v === 'string' && secrets.some((s) => v.includes(s)) ? secrets.reduce((t, s) => t.replaceAll(s, '***'), v) : v,
    ),
  );
}
