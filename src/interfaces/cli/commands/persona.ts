/**
 * `engram persona show|set|history|revert` and `engram profile-schema show|set`: the persona of a
 * scope (dispositions and what each favours; every change a version, revertible) and the schema of
 * what to learn about the user (seed 003).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import type { PersonaVersion } from '../../../core/persona/persona-api.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';
import { decodeTextFile } from '../text-file.js';

interface PersonaFlags extends CommonFlags {
  scope?: string[];
  disposition?: string[];
  favour?: string[];
  reason?: string;
  to?: string;
  field?: string[];
  file?: string;
}

function readText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    throw new EngramError('INVALID_INPUT', `Cannot read --file "${path}": pass a readable text file listing the fields.`);
  }
  return decodeTextFile(bytes, `--file ${path}`);
}

function one(scopes: string[] | undefined, command: string): string {
  if (scopes?.length !== 1)
    throw new EngramError('INVALID_INPUT', `${command} works on one scope: pass exactly one --scope (got ${scopes?.length ?? 0}).`);
  return scopes[0] as string;
}

/** `curiosity=0.8` → ['curiosity', 0.8] (the API checks the range). */
function dispositionsOf(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) {
    const match = /^\s*([^=\s]+)\s*=\s*([-+]?\d*\.?\d+)\s*$/.exec(value);
    if (match === null)
      throw new EngramError(
        'INVALID_INPUT',
        `--disposition takes name=value with a value from 0 to 1, e.g. --disposition curiosity=0.8; got "${value}".`,
      );
    out[match[1] as string] = Number(match[2]);
  }
  return out;
}

/** `curiosity.tags=ml,research` → { curiosity: { tags: ['ml', 'research'] } }. */
function favoursOf(values: readonly string[]): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const value of values) {
    const match = /^\s*([^.=\s]+)\.(tags|moods|kinds)\s*=\s*(.+)$/.exec(value);
    if (match === null)
      throw new EngramError(
        'INVALID_INPUT',
        `--favour takes disposition.tags|moods|kinds=a,b, e.g. --favour curiosity.tags=ml,research; got "${value}".`,
      );
    const entry = (out[match[1] as string] ??= {});
    entry[match[2] as string] = (match[3] as string)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  }
  return out;
}

function formatVersion(v: PersonaVersion | null): string {
  if (v === null) return 'no persona (set one with: engram persona set --scope S --disposition curiosity=0.7)';
  const values = Object.entries(v.persona.dispositions)
    .map(([d, x]) => `${d} ${x}`)
    .join(', ');
  // a reason may already name its author ("reflection: curiosity +0.1 …"): said once
  const { by, reason } = v.change;
  const why = reason.startsWith(`${by}:`) ? reason : `${by}: ${reason}`;
  return `${v.id} [${v.status}] ${v.recordedAt.slice(0, 19)}Z ${values} — ${why}`;
}

/** Registers `persona` and `profile-schema`. */
export function registerPersonaCommands(program: Command): void {
  const persona = program
    .command('persona')
    .description("a scope's persona: dispositions 0..1 that re-rank recall and context (--persona), grown by reflection, revertible");
  withCommonFlags(persona.command('show').description('the persona a read of the scopes uses'))
    .option('--scope <scope>', 'scope to read (repeatable; the first that has a persona wins)', collect)
    .action(async (flags: PersonaFlags) => {
      await withEngine(flags, async (engram) => {
        printResult({ json: flags.json === true }, await engram.persona({ scopes: flags.scope ?? [] }), formatVersion);
      });
    });
  withCommonFlags(persona.command('set').description('set the persona of a scope as a new version'))
    .option('--scope <scope>', 'the scope (exactly one)', collect)
    .option('--disposition <name=value>', 'a disposition 0..1, e.g. curiosity=0.8 (repeatable, at least one)', collect)
    .option(
      '--favour <disposition.kind=a,b>',
      'what a disposition favours: tags, moods or kinds, e.g. curiosity.tags=ml,research (repeatable)',
      collect,
    )
    .option('--reason <text>', 'why (kept in the history)')
    .action(async (flags: PersonaFlags) => {
      await withEngine(
        flags,
        async (engram) => {
          const scope = one(flags.scope, 'persona set');
          const favours = favoursOf(flags.favour ?? []);
          const version = await engram.setPersona({
            scope,
            dispositions: dispositionsOf(flags.disposition ?? []),
            ...(Object.keys(favours).length > 0 ? { favours } : {}),
            ...(flags.reason !== undefined ? { reason: flags.reason } : {}),
          });
          printResult({ json: flags.json === true }, version, formatVersion);
        },
        { create: true },
      );
    });
  withCommonFlags(
    persona.command('history').description('every version of the persona of a scope, oldest first, with who changed it and why'),
  )
    .option('--scope <scope>', 'the scope (exactly one)', collect)
    .action(async (flags: PersonaFlags) => {
      await withEngine(flags, async (engram) => {
        const scope = one(flags.scope, 'persona history');
        printResult({ json: flags.json === true }, await engram.personaHistory({ scope }), (vs: PersonaVersion[]) =>
          vs.length === 0 ? 'no persona versions' : vs.map(formatVersion).join('\n'),
        );
      });
    });
  withCommonFlags(
    persona.command('revert').description('restore an earlier version (default: the one before the current) as a new version'),
  )
    .option('--scope <scope>', 'the scope (exactly one)', collect)
    .option('--to <id>', 'the version to restore (see persona history)')
    .option('--reason <text>', 'why (kept in the history)')
    .action(async (flags: PersonaFlags) => {
      await withEngine(flags, async (engram) => {
        const scope = one(flags.scope, 'persona revert');
        const version = await engram.revertPersona({
          scope,
          ...(flags.to !== undefined ? { to: flags.to } : {}),
          ...(flags.reason !== undefined ? { reason: flags.reason } : {}),
        });
        printResult({ json: flags.json === true }, version, formatVersion);
      });
    });

  const schema = program
    .command('profile-schema')
    .description('what to learn about the user (seed 003): fields the context lists as known or still missing');
  withCommonFlags(schema.command('show').description('the fields a read of the scopes sees'))
    .option('--scope <scope>', 'scope to read (repeatable)', collect)
    .action(async (flags: PersonaFlags) => {
      await withEngine(flags, async (engram) => {
        const view = await engram.profileSchema({ scopes: flags.scope ?? [] });
        printResult({ json: flags.json === true }, view, (v: typeof view) =>
          v.fields.length === 0
            ? 'no profile schema'
            : v.fields
                .map((f) => `- ${f.name}${f.description ? `: ${f.description}` : ''}${f.example ? ` (example: ${f.example})` : ''}`)
                .join('\n'),
        );
      });
    });
  withCommonFlags(schema.command('set').description('set the schema of a scope as a new version'))
    .option('--scope <scope>', 'the scope (exactly one), e.g. acme/shared', collect)
    .option('--field <"name: description (example: …)">', 'a field (repeatable)', collect)
    .option('--file <path>', 'a text or schema.md file listing the fields ("- name: description (example: …)" lines or "Store: a, b, c")')
    .option('--reason <text>', 'why (kept in the history)')
    .action(async (flags: PersonaFlags) => {
      await withEngine(
        flags,
        async (engram) => {
          const scope = one(flags.scope, 'profile-schema set');
          const text = [...(flags.field ?? []).map((f) => `- ${f}`), ...(flags.file !== undefined ? [readText(flags.file)] : [])].join(
            '\n',
          );
          // loaded here, not at start-up: `engram --help` must not load zod
          const { parseProfileSchema } = await import('../../../core/profile/profile-schema.js');
          const fields = parseProfileSchema(text);
          if (fields.length === 0)
            throw new EngramError(
              'INVALID_INPUT',
              'profile-schema set needs fields: --field "budget range: what the user can spend (example: 80L)" (repeatable) or --file schema.md.',
            );
          const view = await engram.setProfileSchema({ scope, fields, ...(flags.reason !== undefined ? { reason: flags.reason } : {}) });
          printResult(
            { json: flags.json === true },
            view,
            (v: typeof view) =>
              `profile schema of ${scope}: ${v.fields.map((f) => f.name).join(', ')}${v.superseded.length > 0 ? ` (replaces ${v.superseded.join(', ')})` : ''}`,
          );
        },
        { create: true },
      );
    });
}
