/**
 * `engram export markdown | import markdown`: a scope as readable Markdown files and back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { collect, oneScope, withCommonFlags, type ScopeFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';
import { decodeTextFile } from '../text-file.js';
import { makeOutputDirectory, writeOutputFile } from '../output-files.js';

/** Registers `export markdown` and `import markdown` (creating the `export` and `import` commands). */
export function registerMarkdownCommands(program: Command): void {
  const exportCommand = program.command('export').description('export memories');
  withCommonFlags(
    exportCommand
      .command('markdown <dir>')
      .description(
        'write a scope as procedural.md, semantic.md, concepts.md, profile.md and log.md (and schema.md when it has a profile schema)',
      ),
  )
    .option('--scope <scope>', 'the scope to export', collect)
    .action(async (dir: string, flags: ScopeFlags) => {
      await withEngine(flags, async (engram) => {
        await engram.processJobs({ maxMs: 10_000 });
        const files = await engram.exportMarkdown({ scope: oneScope(flags.scope, 'export markdown') });
        makeOutputDirectory(dir);
        for (const [name, text] of Object.entries(files)) writeOutputFile(join(dir, name), text);
        const summary = {
          dir,
          files: Object.keys(files),
          entries: Object.fromEntries(Object.entries(files).map(([n, t]) => [n, t.split('\n').filter((l) => l.startsWith('- ')).length])),
        };
        printResult({ json: flags.json === true }, summary, (s: typeof summary) =>
          Object.entries(s.entries)
            .map(([n, c]) => `${join(s.dir, n)}: ${c} entries`)
            .join('\n'),
        );
      });
    });

  const importCommand = program.command('import').description('import memories');
  withCommonFlags(
    importCommand
      .command('markdown <dir>')
      .description('read procedural.md, semantic.md, concepts.md, profile.md, log.md and schema.md back into a scope'),
  )
    .option('--scope <scope>', 'the scope to import into', collect)
    .action(async (dir: string, flags: ScopeFlags) => {
      await withEngine(
        flags,
        async (engram) => {
          const scope = oneScope(flags.scope, 'import markdown');
          let names: string[];
          try {
            names = readdirSync(dir).filter((n) => n.endsWith('.md'));
          } catch {
            throw new EngramError('INVALID_INPUT', `Cannot read directory "${dir}": pass the directory export markdown wrote.`);
          }
          if (names.length === 0) throw new EngramError('INVALID_INPUT', `No .md files in "${dir}".`);
          const files = Object.fromEntries(names.map((n) => [n, decodeTextFile(readFileSync(join(dir, n)), join(dir, n))]));
          const report = await engram.importMarkdown(files, { scope });
          printResult(
            { json: flags.json === true },
            report,
            (r: typeof report) =>
              `created ${r.created} · updated ${r.updated} · unchanged ${r.unchanged} · new entries ${r.added} · refs ${r.refs} · edges ${r.edges}`,
          );
        },
        { create: true },
      );
    });
}
