/**
 * `engram import claude-code [DIR] | chatgpt FILE | claude-ai FILE | mem0 FILE | mcp-memory FILE |
 * vault DIR --style obsidian|basic-memory` and `engram export mcp-memory --scope S FILE`: the
 * importers from other systems (src/portability/importers) with files read here, a progress bar on
 * a terminal, and a report of what was created, merged, superseded and skipped, and why.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { scopeProblem } from '../../../core/scope.js';
import type { Engram } from '../../../engram.js';
// the importers (and zod through them) load only when an import runs
import type * as Importers from '../../../portability/importers/index.js';
import type { StoreReader } from '../../../core/ports/store.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';
import { formatImportReport, progressBar, type Progress } from './import-report.js';
import { writeOutputFile } from '../output-files.js';
import { decodeTextFile } from '../text-file.js';

interface SourceFlags extends CommonFlags {
  scope?: string;
  scopeTemplate?: string[];
  tenant?: string;
  defaultTime?: string;
}

type ImporterModule = typeof Importers;

/** Placeholders each importer fills, besides `{tenant}` (from --tenant). */
const PLACEHOLDERS: Record<string, readonly string[]> = {
  'claude-code': ['project', 'dir', 'session'],
  chatgpt: ['conversation_id', 'title'],
  'claude-ai': ['conversation_id', 'title'],
  mem0: ['user_id', 'agent_id', 'run_id', 'app_id', 'org_id', 'project_id', 'actor_id'],
  'mcp-memory': [],
  vault: [],
};

function withSourceFlags(command: Command, source: string): Command {
  const names = [...(PLACEHOLDERS[source] ?? []), 'tenant'].map((p) => `{${p}}`).join(', ');
  return withCommonFlags(command)
    .option('--scope <scope>', 'the scope records go into (or the fallback when no --scope-template matches)')
    .option(
      '--scope-template <template>',
      `scope built from each record's ids, placeholders ${names}; repeatable, the first that resolves wins`,
      collect,
    )
    .option('--tenant <tenant>', 'the value of {tenant} in --scope-template')
    .option(
      '--default-time <iso>',
      'time for records the source gives none (ISO 8601, or "now"); without it they are skipped and reported',
    );
}

/** Registers the importers under `engram import` and the MCP memory exporter under `engram export`. */
export function registerImportSourceCommands(program: Command): void {
  const importCommand = parent(program, 'import');
  const exportCommand = parent(program, 'export');

  withSourceFlags(
    importCommand
      .command('claude-code [dir]')
      .description("import Claude Code session transcripts (default ~/.claude/projects) through the hooks' capture path"),
    'claude-code',
  ).action(async (dir: string | undefined, flags: SourceFlags) =>
    run(flags, 'claude-code', {
      read: () => sessionFiles(dir ?? join(homedir(), '.claude', 'projects')),
      apply: importClaudeCode,
    }),
  );

  for (const [name, what] of [
    ['chatgpt', 'a ChatGPT data export (conversations.json)'],
    ['claude-ai', 'a Claude.ai data export (conversations.json)'],
  ] as const) {
    withSourceFlags(
      importCommand.command(`${name} <file>`).description(`import ${what}: each turn a captured episode in a session per conversation`),
      name,
    ).action(async (file: string, flags: SourceFlags) =>
      run(flags, name, {
        read: (m) => m.conversationList(readJson(file), name),
        apply: async (engram, { importers: m, input, context, progress }) => {
          const units = name === 'chatgpt' ? m.chatgptUnits(input, context) : m.claudeAiUnits(input, context);
          return m.applyImport(engram, name, tracked([...units], progress));
        },
      }),
    );
  }

  withSourceFlags(
    importCommand
      .command('mem0 <file>')
      .description('import mem0 memories (get_all results or an export) as semantic memories; ids map to scopes through --scope-template'),
    'mem0',
  ).action(async (file: string, flags: SourceFlags) =>
    run(flags, 'mem0', {
      read: (m) => m.mem0List(readJson(file)),
      apply: async (engram, { importers: m, input, context, progress }) =>
        m.applyImport(engram, 'mem0', tracked([...m.mem0Units(input, context)], progress), { versions: versionLedger(engram) }),
    }),
  );

  withSourceFlags(
    importCommand
      .command('mcp-memory <file>')
      .description('import an MCP memory server graph (memory.jsonl): entities, observations, relations'),
    'mcp-memory',
  ).action(async (file: string, flags: SourceFlags) =>
    run(flags, 'mcp-memory', {
      read: (m) => {
        if (flags.defaultTime === undefined) {
          throw new EngramError(
            'INVALID_INPUT',
            'An MCP memory graph records no time: pass --default-time ISO (since when its facts hold) or --default-time now.',
          );
        }
        const text = readText(file);
        m.requireShape(m.linesOf(text), 'mcp-memory');
        return text;
      },
      apply: async (engram, { importers: m, input, context, progress }) =>
        m.applyImport(engram, 'mcp-memory', tracked([m.mcpMemoryUnit(input, context)], progress)),
    }),
  );

  withSourceFlags(
    importCommand
      .command('vault <dir>')
      .description('import a Markdown vault: notes, [[links]] as relations, basic-memory observations as facts'),
    'vault',
  )
    .option('--style <style>', 'obsidian or basic-memory')
    .option('--folders <mode>', 'folders become tags (default) or scopes under --scope')
    .action(async (dir: string, flags: SourceFlags & { style?: string; folders?: string }) =>
      run(flags, 'vault', {
        read: () => {
          const style = flags.style;
          if (style !== 'obsidian' && style !== 'basic-memory')
            throw new EngramError(
              'INVALID_INPUT',
              `--style must be obsidian or basic-memory (got ${style === undefined ? 'none' : `"${style}"`}).`,
            );
          const folders = flags.folders ?? 'tags';
          if (folders !== 'tags' && folders !== 'scopes')
            throw new EngramError('INVALID_INPUT', `--folders must be tags or scopes (got "${folders}").`);
          return { style, folders, files: readVault(dir) } as const;
        },
        apply: async (engram, { importers: m, input, context, progress }) =>
          m.applyImport(engram, input.style, tracked(m.vaultUnits(input.files, context, input), progress)),
      }),
    );

  withCommonFlags(
    exportCommand
      .command('mcp-memory <file>')
      .description('write a scope as an MCP memory server graph (memory.jsonl): entities, observations, relations'),
  )
    .option('--scope <scope>', 'the scope to export')
    .action(async (file: string, flags: CommonFlags & { scope?: string }) => {
      await withEngine(flags, async (engram) => {
        const scope = validScope(flags.scope, 'export mcp-memory');
        await engram.processJobs({ maxMs: 10_000 });
        const { exportMcpMemory } = await import('../../../portability/importers/mcp-memory-export.js');
        const { lines, report } = await exportMcpMemory(engram.store, scope);
        writeOutputFile(file, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
        const summary = { file, ...report };
        printResult({ json: flags.json === true }, summary, (s: typeof summary) =>
          [
            `${s.file}: ${s.entities} entities, ${s.observations} observations, ${s.relations} relations from ${s.scope}`,
            ...Object.entries(s.leftOut).map(([why, n]) => `  left out ${n} ${why}`),
          ].join('\n'),
        );
      });
    });
}

/** The latest imported version of each source identity, in a state document of its scope. */
function versionLedger(engram: Engram): Importers.VersionLedger {
  const key = (identity: string): string => `import/version/${identity}`;
  // which identities' latest version each record is: two sources saying the same thing are one record
  const holdersKey = (id: string): string => `import/holders/${id}`;
  const holders = async (tx: Pick<StoreReader, 'getState'>, scope: string, id: string): Promise<string[]> => {
    const value = (await tx.getState(scope, holdersKey(id)))?.value;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };
  const latest = async (scope: string, identity: string): Promise<{ id: string; at: number } | undefined> => {
    const value = (await engram.store.getState(scope, key(identity)))?.value as { id?: unknown; at?: unknown } | null | undefined;
    return typeof value?.id === 'string' && typeof value.at === 'number' ? { id: value.id, at: value.at } : undefined;
  };
  return {
    latest,
    remember: async (scope, identity, version) => {
      const now = engram.clock.now();
      const before = await latest(scope, identity);
      await engram.store.transaction(async (tx) => {
        if (before !== undefined && before.id !== version.id) {
          const left = (await holders(tx, scope, before.id)).filter((h) => h !== identity);
          if (left.length > 0) await tx.setState(scope, holdersKey(before.id), left, now);
          else await tx.deleteState(scope, holdersKey(before.id));
        }
        const current = await holders(tx, scope, version.id);
        if (!current.includes(identity)) await tx.setState(scope, holdersKey(version.id), [...current, identity], now);
        await tx.setState(scope, key(identity), version, now);
      });
    },
    sharedWith: async (scope, id, identity) => (await holders(engram.store, scope, id)).some((h) => h !== identity),
  };
}

function parent(program: Command, name: string): Command {
  const found = program.commands.find((c) => c.name() === name);
  if (found === undefined) throw new Error(`the "${name}" command must be registered before the importers`);
  return found;
}

/** What an import's `apply` step works with: what `read` returned, the context of its flags, the progress bar. */
interface ImportRun<T> {
  importers: ImporterModule;
  input: T;
  context: Importers.ImportContext;
  progress: Progress;
}

/** The import context as the flags give it, before the engine opens (`now` is read from its clock). */
type FlagContext = Omit<Importers.ImportContext, 'defaultTime' | 'redactor'> & { defaultTime?: number | 'now' };

/**
 * Runs one import. The flags are checked and the source read (`read`: a file parsed, its format
 * checked) before the engine opens, so a refusal creates no database and writes nothing; `apply`
 * then writes what was read, with the engine's redactor in the context.
 */
async function run<T>(
  flags: SourceFlags,
  source: string,
  steps: { read: (importers: ImporterModule) => T; apply: (engram: Engram, run: ImportRun<T>) => Promise<Importers.ImportReport> },
): Promise<void> {
  let importers: ImporterModule;
  let flagContext: FlagContext;
  let input: T;
  try {
    importers = await import('../../../portability/importers/index.js');
    flagContext = await importContext(flags, source);
    input = steps.read(importers);
  } catch (error) {
    process.exitCode = printError({ json: flags.json === true }, error);
    return;
  }
  await withEngine(
    flags,
    async (engram) => {
      const { defaultTime, ...rest } = flagContext;
      const context: Importers.ImportContext = {
        ...rest,
        redactor: engram.redactor,
        ...(defaultTime !== undefined ? { defaultTime: defaultTime === 'now' ? engram.clock.now() : defaultTime } : {}),
      };
      const progress = await progressBar(flags.json !== true && process.stderr.isTTY === true);
      let report: Importers.ImportReport;
      try {
        report = await steps.apply(engram, { importers, input, context, progress });
      } finally {
        progress.stop();
      }
      printResult({ json: flags.json === true }, report, (r: Importers.ImportReport) => formatImportReport(r, source));
    },
    { create: true },
  );
}

/** Units with a progress tick after each, so the bar moves as they are written. */
function* tracked(units: readonly Importers.ImportUnit[], progress: Progress): Generator<Importers.ImportUnit> {
  progress.start(units.length);
  for (const unit of units) {
    yield unit;
    progress.tick(unit.label);
  }
}

/** The context the flags give, checked: a missing scope, an unknown placeholder or a bad date is INVALID_INPUT. */
async function importContext(flags: SourceFlags, source: string): Promise<FlagContext> {
  if (flags.scope === undefined && (flags.scopeTemplate ?? []).length === 0) {
    throw new EngramError(
      'INVALID_INPUT',
      `import ${source} needs to know where records go: pass --scope S${(PLACEHOLDERS[source] ?? []).length > 0 ? ` or --scope-template T (placeholders ${(PLACEHOLDERS[source] ?? []).map((p) => `{${p}}`).join(', ')})` : ''}.`,
    );
  }
  const scope = flags.scope !== undefined ? validScope(flags.scope, `import ${source}`) : undefined;
  const allowed = new Set([...(PLACEHOLDERS[source] ?? []), 'tenant']);
  const { placeholdersOf } = await import('../../../portability/importers/scope-template.js');
  for (const template of flags.scopeTemplate ?? []) {
    const unknown = placeholdersOf(template).filter((p) => !allowed.has(p));
    if (unknown.length > 0)
      throw new EngramError(
        'INVALID_INPUT',
        `--scope-template "${template}" names ${unknown.map((p) => `{${p}}`).join(', ')}; import ${source} fills ${[...allowed].map((p) => `{${p}}`).join(', ')}.`,
      );
    if (placeholdersOf(template).includes('tenant') && flags.tenant === undefined)
      throw new EngramError('INVALID_INPUT', `--scope-template "${template}" names {tenant}: pass --tenant T.`);
  }
  const defaultTime = await parseDefaultTime(flags.defaultTime);
  return {
    ...(scope !== undefined ? { scope } : {}),
    ...(flags.scopeTemplate !== undefined ? { scopeTemplates: flags.scopeTemplate } : {}),
    ...(flags.tenant !== undefined ? { values: { tenant: flags.tenant } } : {}),
    ...(defaultTime !== undefined ? { defaultTime } : {}),
  };
}

async function parseDefaultTime(value: string | undefined): Promise<number | 'now' | undefined> {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'now') return 'now';
  const { instantFromText, parseIsoInstant, isInstant } = await import('../../../core/instant.js');
  const given = instantFromText(value);
  const ms = typeof given === 'number' ? given : parseIsoInstant(given);
  if (!isInstant(ms))
    throw new EngramError(
      'INVALID_INPUT',
      `--default-time "${value.slice(0, 40)}" is not a date: use ISO 8601 like 2024-05-01 or 2024-05-01T12:00:00Z, epoch milliseconds, or "now".`,
    );
  return ms;
}

function validScope(scope: string | undefined, what: string): string {
  if (scope === undefined) throw new EngramError('INVALID_INPUT', `${what} names one scope: pass --scope S.`);
  const problem = scopeProblem(scope);
  if (problem !== null) throw new EngramError('INVALID_INPUT', `--scope "${scope.slice(0, 80)}" is not a scope: ${problem}.`);
  return scope;
}

/** A file's text, without the byte order mark some editors write first (no JSON parser accepts it). */
function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new EngramError('INVALID_INPUT', `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Check the path.`, {
      cause: error,
    });
  }
  return decodeTextFile(bytes, file);
}

function readJson(file: string): unknown {
  const text = readText(file);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EngramError(
      'INVALID_INPUT',
      `${basename(file)} is not JSON: pass the file of the export as it was downloaded (${(error as Error).message.slice(0, 120)}).`,
      { cause: error },
    );
  }
}

/** Every `.md` file under `dir` (hidden folders such as .obsidian and .git left out), path-relative. */
function readVault(dir: string): Importers.VaultFile[] {
  const files: Importers.VaultFile[] = [];
  const walk = (at: string): void => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch (error) {
      throw new EngramError(
        'INVALID_INPUT',
        `Cannot read the vault folder ${at}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Pass the vault's root folder.`,
        { cause: error },
      );
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        files.push({
          path: relative(dir, path).split(sep).join('/'),
          text: decodeTextFile(readFileSync(path), path),
          modifiedAt: Math.round(statSync(path).mtimeMs),
        });
      }
    }
  };
  walk(dir);
  if (files.length === 0) throw new EngramError('INVALID_INPUT', `No .md files under ${dir}: pass the vault's root folder.`);
  return files;
}

/** Imports Claude Code transcripts: each project folder's sessions, through the hooks' own reader and ingestion. */
async function importClaudeCode(
  engram: Engram,
  { importers: m, input: sessions, context, progress }: ImportRun<SessionFile[]>,
): Promise<Importers.ImportReport> {
  const [{ parseTranscript }, { ingestTurns }] = await Promise.all([
    import('../../hooks/transcript.js'),
    import('../../hooks/handlers.js'),
  ]);
  const report = m.emptyReport('claude-code');
  progress.start(sessions.length);
  for (const session of sessions) {
    report.units += 1;
    const text = readText(session.path);
    const sessionId = basename(session.path, '.jsonl');
    const all = parseTranscript(text);
    const other = m.transcriptEntries(text) - all.length;
    if (other > 0) {
      const reason =
        'transcript entries that are not conversation turns (tool calls and results, thinking, meta, sub-agent and command entries: the hooks store none of them)';
      m.skip(report, { ref: `session ${sessionId} (${other} entries)`, reason });
      report.skippedByReason[reason] = (report.skippedByReason[reason] ?? 0) + other - 1;
    }
    const resolved = m.resolveScope(context, m.claudeCodePlaceholders(session.project, sessionId, m.transcriptCwd(text)));
    const turns = all.flatMap((turn) => {
      if (turn.timestamp !== undefined && !Number.isNaN(Date.parse(turn.timestamp))) return [turn];
      if (context.defaultTime !== undefined) return [{ ...turn, timestamp: new Date(context.defaultTime).toISOString() }];
      m.skip(report, { ref: `session ${sessionId}, message ${turn.uuid}`, reason: m.NO_TIME_REASON });
      return [];
    });
    if ('problem' in resolved) {
      for (const turn of turns) m.skip(report, { ref: `session ${sessionId}, message ${turn.uuid}`, reason: resolved.problem });
    } else if (turns.length > 0) {
      const result = await ingestTurns(engram, { scope: resolved.scope, sessionId, turns });
      report.memories.created += result.stored;
      report.memories.unchanged += result.unchanged;
      if (result.stored > 0) report.scopes[resolved.scope] = (report.scopes[resolved.scope] ?? 0) + result.stored;
      report.redacted += result.redacted ?? 0;
      for (const [action, n] of Object.entries(result.claims ?? {})) report.claims[action as keyof typeof report.claims] += n;
    }
    progress.tick(sessionId);
  }
  return report;
}

/** A session transcript and the project folder it is in. */
interface SessionFile {
  project: string;
  path: string;
}

/** The session files under `dir`: a project folder itself (it holds .jsonl files), or a folder of project folders. */
function sessionFiles(dir: string): SessionFile[] {
  const list = (at: string) => {
    try {
      return readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch (error) {
      throw new EngramError(
        'INVALID_INPUT',
        `Cannot read ${at}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Pass the Claude Code projects folder (~/.claude/projects) or one project's folder.`,
        { cause: error },
      );
    }
  };
  const entries = list(dir);
  const own = entries
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => ({ project: basename(dir), path: join(dir, e.name) }));
  const nested = entries
    .filter((e) => e.isDirectory())
    .flatMap((e) =>
      list(join(dir, e.name))
        .filter((f) => f.isFile() && f.name.endsWith('.jsonl'))
        .map((f) => ({ project: e.name, path: join(dir, e.name, f.name) })),
    );
  const sessions = [...own, ...nested];
  if (sessions.length === 0) throw new EngramError('INVALID_INPUT', `No session transcripts (*.jsonl) in ${dir} or its project folders.`);
  return sessions;
}
