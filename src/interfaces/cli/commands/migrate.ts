/**
 * `engram migrate --from engram.db --to postgres://…`: copies a SQLite database into PostgreSQL and
 * verifies every table by a content hash (a file an earlier release wrote is migrated first, as any
 * command's open does). Prints a per-table table (or `--json`); exit code 1 when any table differs.
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { isMissingSqliteFile, missingDatabaseError } from '../missing-database.js';
import { printError, printResult } from '../output.js';

interface MigrateFlags {
  from?: string;
  to?: string;
  json?: boolean;
  quiet?: boolean;
}

interface TableCheck {
  table: string;
  sourceRows: number;
  targetRows: number;
  sourceHash: string;
  targetHash: string;
  match: boolean;
}

/** Registers `migrate`. */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description(
      'copy a SQLite database into PostgreSQL (records, embeddings, edges, relation types, reports, queues, meta) and verify each table by content hash',
    )
    .requiredOption('--from <file>', 'the SQLite database to copy (only read, once its schema is current)')
    .requiredOption('--to <url>', 'postgres://user:password@host:5432/database[?schema=name]; the schema must be empty')
    .option('--json', 'machine-readable JSON output')
    .option('--quiet', 'no progress lines on stderr')
    .action(async (flags: MigrateFlags) => {
      const json = flags.json === true;
      try {
        const to = flags.to as string;
        if (isMissingSqliteFile(flags.from as string)) throw missingDatabaseError(flags.from as string);
        if (!/^postgres(ql)?:\/\//i.test(to)) {
          throw new EngramError(
            'INVALID_INPUT',
            `--to must be a PostgreSQL URL (postgres://user:password@host:5432/database), got "${to.slice(0, 80)}".`,
          );
        }
        const { migrateSqliteToPostgres } = await import('../../../storage/migrate/sqlite-to-postgres.js');
        const report = await migrateSqliteToPostgres({
          from: flags.from as string,
          to,
          ...(json || flags.quiet === true ? {} : { onProgress: (line: string) => process.stderr.write(`  ${line}\n`) }),
        });
        printResult({ json }, report, (r: typeof report) => formatReport(r));
        if (!report.ok) process.exitCode = 1;
      } catch (error) {
        process.exitCode = printError({ json }, error);
      }
    });
}

function formatReport(report: { from: string; to: string; schema: string; tables: TableCheck[]; ok: boolean; durationMs: number }): string {
  const header = ['table', 'source rows', 'target rows', 'source sha256', 'target sha256', 'ok'];
  const rows = report.tables.map((t) => [
    t.table,
    String(t.sourceRows),
    String(t.targetRows),
    t.sourceHash.slice(0, 16),
    t.targetHash.slice(0, 16),
    t.match ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `migrated ${report.from} → ${report.to} (schema ${report.schema}) in ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    report.ok
      ? 'every table matches: same rows, same content hash'
      : 'MISMATCH: the tables marked NO differ; the target is not a faithful copy',
  ].join('\n');
}
