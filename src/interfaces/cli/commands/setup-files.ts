/**
 * The JSON files `engram setup claude-code` merges into: each change is a function of the file's
 * current document that replaces only Engram's own entries (its MCP server, its hook commands, its
 * environment variables), so other settings survive and a second run changes nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { EngramError } from '../../../core/errors.js';
import { projectRoot } from '../../hooks/scope-template.js';
import { makeOutputDirectory, makeOwnerOnly, writeOutputFile } from '../output-files.js';

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

/**
 * Adds our hook groups after removing earlier Engram hooks of the same events: only Engram's own
 * entries leave a group, so the user's hooks (and their groups, matchers included) stay as they are;
 * a group left with no hook at all goes.
 */
export function mergeHooks(ours: Json): (doc: Json) => Json {
  return (doc) => {
    const hooks = { ...((doc.hooks as Json | undefined) ?? {}) };
    for (const [event, entries] of Object.entries(ours)) {
      const existing = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
      const others = existing.flatMap((group) => withoutEngramHooks(group, HOOK_COMMANDS[event] as string));
      hooks[event] = [...others, ...(entries as Json[])];
    }
    return { ...doc, hooks };
  };
}

/** A hook group without its Engram hooks: unchanged when it has none, nothing when it had only those. */
function withoutEngramHooks(group: unknown, name: string): unknown[] {
  if (group === null || typeof group !== 'object' || !Array.isArray((group as Json).hooks)) return [group];
  const entries = (group as Json).hooks as unknown[];
  const kept = entries.filter((entry) => !isEngramHook(entry, name));
  if (kept.length === entries.length) return [group];
  return kept.length === 0 ? [] : [{ ...(group as Json), hooks: kept }];
}

/** A hook whose command runs `engram hooks <name>` (through any path to the bin, old setups included). */
function isEngramHook(entry: unknown, name: string): boolean {
  const command = entry !== null && typeof entry === 'object' ? (entry as Json).command : undefined;
  return typeof command === 'string' && new RegExp(`(^|[\\s/'"])(engram|main\\.js)['"]? hooks ${name}( |$)`).test(command);
}

/** Sets variables in the document's `env` (Claude Code settings), keeping the others. */
export function mergeEnv(vars: Record<string, string>): (doc: Json) => Json {
  return (doc) => ({ ...doc, env: { ...((doc.env as Json | undefined) ?? {}), ...vars } });
}

/** Chains changes of one file. */
export function both(...changes: ((doc: Json) => Json)[]): (doc: Json) => Json {
  return (doc) => changes.reduce((d, change) => change(d), doc);
}

/** Parses a JSON object file's text ({} when the file is missing); refuses one that is not a JSON object. */
function parseJsonObject(path: string, text: string | null): Json {
  if (text === null) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EngramError('INVALID_INPUT', `${path} is not valid JSON: fix or remove it, then run setup again.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EngramError('INVALID_INPUT', `${path} does not hold a JSON object: fix or remove it, then run setup again.`);
  }
  return value as Json;
}

/**
 * Writes every change, or none when a file cannot be read or merged: each file is read and merged
 * first, its folder made next, and only then are the files written. A file that is not committed is
 * created readable by its owner only; a file whose text holds one of `secrets` is made so even when
 * it already existed (or stays as it is). Returns the changes that altered their file.
 */
export function applyChanges(changes: readonly FileChange[], secrets: readonly string[]): FileChange[] {
  const prepared = changes.map((change) => {
    const before = existsSync(change.path) ? readFileSync(change.path, 'utf8') : null;
    const text = `${JSON.stringify(change.apply(parseJsonObject(change.path, before)), null, 2)}\n`;
    const holdsSecret = secrets.some((secret) => text.includes(JSON.stringify(secret).slice(1, -1)));
    return { change, text, changed: text !== before, holdsSecret };
  });
  for (const { change, changed } of prepared) if (changed) makeOutputDirectory(dirname(change.path));
  for (const { change, text, changed, holdsSecret } of prepared) {
    if (changed) writeOutputFile(change.path, text, { ...(change.committed ? {} : { mode: 0o600 }), ownerOnly: holdsSecret });
    else if (holdsSecret) makeOwnerOnly(change.path);
  }
  return prepared.filter((p) => p.changed).map((p) => p.change);
}

/**
 * Makes git ignore `file` when it lies in a git work tree (the first folder upwards with a `.git`
 * folder or file) and git does not ignore it yet: its path from the top level is added to the
 * `.gitignore` there (a path no .gitignore line can hold, one with a line break, goes to a
 * `.gitignore` beside the file). Returns the .gitignore written, or undefined when nothing was added.
 */
export function ignoreInGit(file: string): string | undefined {
  const root = projectRoot(dirname(file));
  if (!existsSync(join(root, '.git'))) return undefined;
  const path = relative(root, file).split(sep).join('/');
  if (gitIgnores(root, path) === true) return undefined;
  const base = /[\r\n]/.test(path) ? dirname(file) : root;
  const pattern = gitignorePattern(relative(base, file).split(sep).join('/'));
  // a pattern with a `/` is anchored at its .gitignore's folder; one without matches at any depth
  const line = pattern.includes('/') ? pattern : `/${pattern}`;
  const gitignore = join(base, '.gitignore');
  const text = existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '';
  if (text.split(/\r?\n/).some((l) => l.trim() === line || l.trim() === `/${line}`)) return undefined;
  writeOutputFile(gitignore, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
  return gitignore;
}

/** Whether git ignores `path` (from the top level `root`); undefined when git cannot tell (not installed, not a repository). */
function gitIgnores(root: string, path: string): boolean | undefined {
  const result = spawnSync('git', ['check-ignore', '--quiet', '--no-index', '--', path], {
    cwd: root,
    env: { ...process.env, GIT_DIR: join(root, '.git'), GIT_WORK_TREE: root },
    stdio: 'ignore',
    timeout: 5_000,
  });
  return result.status === 0 ? true : result.status === 1 ? false : undefined;
}

/** `path` (relative to a .gitignore's folder) as a .gitignore pattern: wildcards, a leading `#` or `!` and a trailing space escaped. */
function gitignorePattern(path: string): string {
  return path
    .replace(/[\\*?[\]]/g, '\\$&')
    .replace(/^[#!]/, '\\$&')
    .replace(/ $/, '\\ ');
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
