/**
 * `engram reembed --embedder NAME [--db PATH] [--batch N] [--json]`: moves a store to another
 * embedding model in place (`Engram.reembed`), with a progress bar on a terminal (plain lines
 * otherwise). Ctrl-C stops after the batch in flight; running the command again continues.
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import type { ReembedProgress, ReembedReport } from '../../../engram.js';
import { resolveDbPath, type CommonFlags } from '../context.js';
import { DB_FLAG_HELP } from '../default-db.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';

interface ReembedFlags extends CommonFlags {
  batch?: string;
  quiet?: boolean;
}

/** Plain progress lines at most this often (ms) when stderr is not a terminal. */
const LINE_EVERY_MS = 2000;

/** Registers `reembed`. */
export function registerReembedCommand(program: Command): void {
  program
    .command('reembed')
    .description(
      'move a store to another embedding model in place: resumable, the old vectors serve recall until the new ones are complete',
    )
    .requiredOption(
      '--embedder <name>',
      'the model to move to: use, static, hash, an installed model or blend (blend-e5-minilm, bge-small-en-v1.5, e5-small-v2, all-minilm-l6-v2, bge-small-zh-v1.5, blend-small-en) or openai:<model>',
    )
    .option('--db <path>', DB_FLAG_HELP)
    .option('--batch <n>', 'records embedded per batch (default 64)')
    .option('--json', 'machine-readable JSON report on stdout')
    .option('--quiet', 'no progress on stderr')
    .option('--workers <n>', 'embedding worker threads')
    .option(
      '--cache-dir <dir>',
      'cache folder for the static table and the ONNX models (default: $ENGRAM_CACHE_DIR, else $XDG_CACHE_HOME/engram, else ~/.cache/engram)',
    )
    .action(async (flags: ReembedFlags) => {
      const json = flags.json === true;
      const batchSize = flags.batch === undefined ? undefined : Number(flags.batch);
      if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 10_000)) {
        process.exitCode = printError(
          { json },
          new EngramError('INVALID_INPUT', `--batch must be an integer from 1 to 10000 (got "${String(flags.batch).slice(0, 20)}").`),
        );
        return;
      }
      const target = flags.embedder as string;
      // the store opens with the model it records; --embedder is where it goes
      const { embedder: _target, ...openFlags } = flags;
      await withEngine(
        openFlags,
        async (engram) => {
          const stop = new AbortController();
          const onSignal = (): void => stop.abort(new EngramError('CONFLICT', 'stopped'));
          process.once('SIGINT', onSignal);
          process.once('SIGTERM', onSignal);
          const progress = await progressReporter(flags.quiet === true);
          try {
            const report = await engram.reembed({
              embedder: target as 'hash',
              ...(batchSize !== undefined ? { batchSize } : {}),
              onProgress: progress.update,
              signal: stop.signal,
            });
            progress.stop();
            printResult({ json }, { db: resolveDbPath(flags), ...report }, formatReport);
          } catch (error) {
            progress.stop();
            if (!stop.signal.aborted) throw error;
            process.stderr.write(
              `engram reembed: stopped; the vectors staged so far are kept and the store still uses ${engram.embedder.name}. Run the same command again to continue.\n`,
            );
            process.exitCode = 130;
          } finally {
            process.off('SIGINT', onSignal);
            process.off('SIGTERM', onSignal);
          }
        },
        { ignoreEmbedderEnv: true },
      );
    });
}

interface Reporter {
  update: (progress: ReembedProgress) => void;
  stop: () => void;
}

/** A bar on a terminal, a line every few seconds otherwise, nothing with --quiet. */
async function progressReporter(quiet: boolean): Promise<Reporter> {
  if (quiet) return { update: () => undefined, stop: () => undefined };
  if (process.stderr.isTTY) {
    const { default: cliProgress } = await import('cli-progress');
    const bar = new cliProgress.SingleBar(
      {
        format: 'reembed [{bar}] {percentage}% | {value}/{total} records | {phase} | ETA {eta_formatted}',
        clearOnComplete: true,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: (p) => {
        if (!started) {
          bar.start(p.total, p.done, { phase: p.phase });
          started = true;
        }
        bar.setTotal(p.total);
        bar.update(p.done, { phase: p.phase });
      },
      stop: () => started && bar.stop(),
    };
  }
  let last = 0;
  let phase = '';
  return {
    update: (p) => {
      const now = Date.now();
      if (p.phase === phase && now - last < LINE_EVERY_MS) return;
      last = now;
      phase = p.phase;
      const percent = p.total === 0 ? 100 : Math.floor((p.done / p.total) * 100);
      process.stderr.write(`engram reembed: ${p.phase} ${p.done}/${p.total} records (${percent}%)\n`);
    },
    stop: () => undefined,
  };
}

/** One paragraph saying what happened. */
export function formatReport(report: ReembedReport & { db: string }): string {
  if (!report.changed) return `${report.db} already uses ${report.to}: nothing to do.`;
  const lines = [
    `moved ${report.db} from ${report.from} (${report.dimensions.from}-d) to ${report.to} (${report.dimensions.to}-d): ${report.records} records and ${report.chunks} chunks, ${report.vectors} vectors, in ${(report.durationMs / 1000).toFixed(1)} s`,
  ];
  if (report.resumed) lines.push(`resumed: ${report.vectors - report.embedded} vectors were already staged by an earlier run`);
  if (report.discarded !== null) lines.push(`discarded the unfinished move to ${report.discarded}`);
  if (report.indexed.length > 0)
    lines.push(`vector index rebuilt for ${report.indexed.length} scope${report.indexed.length === 1 ? '' : 's'}`);
  return lines.join('\n');
}
