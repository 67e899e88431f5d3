/**
 * `engram export jsonl --scope S… | --all-scopes [--embeddings] FILE` and `engram import jsonl FILE`:
 * the lossless dump (docs/dump-format.md), streamed to and from a file (`-`: stdout / stdin), with a
 * progress bar on a terminal.
 */
import { createReadStream, createWriteStream, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { EngramError, isEngramError } from '../../../core/errors.js';
import type { DumpImportReport } from '../../../core/dump/index.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';

interface ExportFlags extends CommonFlags {
  scope?: string[];
  allScopes?: boolean;
  embeddings?: boolean;
}

/** The `export` / `import` parent command, created once whichever file registers first. */
function parent(program: Command, name: 'export' | 'import'): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(`${name} memories`);
}

/** Registers `export jsonl` and `import jsonl` on the `export` and `import` parents. */
export function registerDumpCommands(program: Command): void {
  withCommonFlags(
    parent(program, 'export')
      .command('jsonl <file>')
      .description('dump scopes losslessly as NDJSON (docs/dump-format.md); FILE - writes to stdout'),
  )
    .option('--scope <scope>', 'a scope to dump (repeatable)', collect)
    .option('--all-scopes', 'dump every scope of the store')
    .option('--embeddings', "include each record's vector (off by default: the importer re-embeds)")
    .action(async (file: string, flags: ExportFlags) => {
      await withEngine(flags, async (engram) => {
        if (flags.allScopes === true && (flags.scope ?? []).length > 0)
          throw new EngramError('INVALID_INPUT', 'export jsonl takes --scope or --all-scopes, not both.');
        const scopes = flags.allScopes === true ? 'all' : (flags.scope ?? []);
        if (scopes !== 'all' && scopes.length === 0) {
          throw new EngramError(
            'INVALID_INPUT',
            'export jsonl needs --scope S (repeatable) or --all-scopes: there is no "everything" default.',
          );
        }
        const lines = engram.exportJsonl({ scopes, embeddings: flags.embeddings === true });
        const toStdout = file === '-';
        const partial = `${file}.partial`;
        const out: Writable = toStdout ? process.stdout : createWriteStream(partial, { fd: openForWriting(partial, file) });
        const bar = !toStdout && process.stderr.isTTY && flags.json !== true ? await progressBar('export', 'records') : undefined;
        const counts: Record<string, number> = {};
        try {
          if (bar !== undefined) {
            const total = scopes === 'all' ? undefined : (await engram.stats({ scopes })).total;
            bar.start(total ?? 0, 0);
          }
          for await (const line of lines) {
            const kind = /^\{"kind":"([a-zA-Z]+)"/.exec(line)?.[1];
            if (kind !== undefined) counts[kind] = (counts[kind] ?? 0) + 1;
            if (kind === 'record') bar?.increment();
            if (!out.write(line)) await once(out, 'drain');
          }
          if (!toStdout) {
            out.end();
            await once(out, 'finish');
            // written whole, then moved into place: FILE never holds half a dump
            renameSync(partial, file);
          }
        } catch (error) {
          if (!toStdout) {
            out.destroy();
            rmSync(partial, { force: true });
          }
          throw error;
        } finally {
          bar?.stop();
        }
        const { end: _end, ...written } = counts;
        const summary = { file, ...written };
        if (!toStdout)
          printResult(
            { json: flags.json === true },
            summary,
            (s: typeof summary) =>
              `${s.file}: ${Object.entries(written)
                .map(([k, n]) => `${k}: ${n}`)
                .join(', ')}`,
          );
      });
    });

  withCommonFlags(
    parent(program, 'import')
      .command('jsonl <file>')
      .description('restore a dump written by export jsonl (ids kept; running it again creates nothing twice); FILE - reads stdin'),
  ).action(async (file: string, flags: CommonFlags) => {
    const fromStdin = file === '-';
    const size = fromStdin ? undefined : fileSize(file);
    // a file that is not a dump is refused before a missing database is created (stdin cannot be read twice)
    // loaded here, not with the command definitions: `engram --help` loads no schema (cli-startup.test.ts)
    const { readDumpHeader } = await import('../../../core/dump/index.js');
    const dumpEmbedder = fromStdin ? undefined : (await readDumpHeader(createReadStream(file)).catch(unreadable(file))).embedder.name;
    await withEngine(
      flags,
      async (engram) => {
        const source = fromStdin ? process.stdin : createReadStream(file);
        const bar = size !== undefined && process.stderr.isTTY && flags.json !== true ? await progressBar('import', 'bytes') : undefined;
        let read = 0;
        bar?.start(size ?? 0, 0);
        const counted = async function* (): AsyncGenerator<Uint8Array> {
          for await (const chunk of source as AsyncIterable<Buffer>) {
            yield chunk;
            read += chunk.length;
          }
        };
        try {
          const report = await engram.importJsonl(counted(), { onProgress: () => bar?.update(read) });
          bar?.update(size ?? 0);
          bar?.stop();
          printResult({ json: flags.json === true }, report, describeImport);
        } finally {
          bar?.stop();
        }
      },
      { create: true, ...(dumpEmbedder !== undefined ? { embedderForNewStore: dumpEmbedder } : {}) },
    );
  });
}

/** Opens the temporary file beside FILE, or says why it cannot be written. */
function openForWriting(partial: string, file: string): number {
  try {
    return openSync(partial, 'w');
  } catch (error) {
    throw new EngramError(
      'INVALID_INPUT',
      `Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Check that its folder exists and is writable (or pass - for stdout).`,
      { cause: error },
    );
  }
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    throw new EngramError(
      'INVALID_INPUT',
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Check the path (or pass - to read stdin).`,
      { cause: error },
    );
  }
}

/** A file the header read could not open (a folder, no permission) is bad input naming it, not an internal error. */
function unreadable(file: string): (error: unknown) => never {
  return (error) => {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === undefined || isEngramError(error)) throw error;
    const why = code === 'EISDIR' ? 'it is a folder, not a dump file' : code === 'EACCES' ? 'permission denied' : code;
    throw new EngramError('INVALID_INPUT', `Cannot read ${file}: ${why}.`, { details: { file } });
  };
}

function describeImport(report: DumpImportReport): string {
  const rows = Object.entries(report.counts)
    .filter(([, c]) => c.created + c.skipped + c.conflicting > 0)
    .map(
      ([kind, c]) =>
        `  ${kind}: ${c.created} created, ${c.skipped} already there${c.conflicting > 0 ? `, ${c.conflicting} kept as stored (conflicting)` : ''}`,
    );
  const vectors =
    report.embedder.vectors === 'dump' ? 'vectors from the dump' : `${report.embedded} records embedded with ${report.embedder.store}`;
  const conflicts = report.conflicts.slice(0, 10).map((c) => `  conflict: ${c.kind} ${c.scope} ${c.key}: ${c.reason}`);
  const redacted = report.redacted !== undefined ? [`  ${report.redacted} secret${report.redacted === 1 ? '' : 's'} redacted`] : [];
  return [`imported ${report.lines} lines (${vectors})`, ...rows, ...redacted, ...conflicts].join('\n');
}

async function progressBar(
  verb: string,
  unit: string,
): Promise<{ start(total: number, value: number): void; increment(): void; update(value: number): void; stop(): void }> {
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      format: `${verb} [{bar}] {percentage}% | {value}/{total} ${unit} | ETA {eta_formatted}`,
      clearOnComplete: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  return bar;
}
