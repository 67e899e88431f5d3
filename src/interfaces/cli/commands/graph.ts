/**
 * `engram relate | relations list | relations register | edges | activate`: thin shells over the
 * engine's graph.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { instantFromText } from '../../../core/instant.js';
import type { ActivationView } from '../../../core/graph/activate.js';
import type { RelationType } from '../../../core/relations.js';
import { collect, oneScope, withCommonFlags, type CommonFlags, type ScopeFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';
import { numberFlag } from '../number-flag.js';

/** Registers the graph commands. */
export function registerGraphCommands(program: Command): void {
  withCommonFlags(
    program.command('relate <from> <type> <to>').description('relate two memories of one scope with a registered relation type'),
  )
    .option('--scope <scope>', 'the scope both memories live in', collect)
    .option('--weight <w>', 'edge weight (default 1)')
    .action(async (from: string, type: string, to: string, flags: ScopeFlags & { weight?: string }) => {
      await withEngine(flags, async (engram) => {
        const weight = numberFlag(flags.weight, '--weight', '0.8');
        const result = await engram.relate({
          scope: oneScope(flags.scope, 'relate'),
          from,
          type,
          to,
          ...(weight !== undefined ? { weight } : {}),
        });
        printResult(
          { json: flags.json === true },
          result,
          (r: typeof result) =>
            `${r.action} ${r.edge.from} ${r.edge.type} ${r.edge.to} ${pc.dim(`weight ${r.edge.weight} · ${r.symmetric ? 'symmetric' : 'directed'} · ${r.edge.id}`)}`,
        );
      });
    });

  const relations = program.command('relations').description('the relationship registry');
  withCommonFlags(relations.command('list').description('built-in relation types and those registered by the tenants of the scopes'))
    .option('--scope <scope>', "scope whose tenant's registered types to list too (repeatable; without it, the built-ins only)", collect)
    .action(async (flags: CommonFlags & { scope?: string[] }) => {
      if (flags.scope === undefined) {
        // the built-ins belong to every tenant: no scope to name, no database to open
        const { BUILT_IN_RELATIONS } = await import('../../../core/relations.js');
        printResult(
          { json: flags.json === true },
          BUILT_IN_RELATIONS,
          (list: RelationType[]) =>
            `${formatRelations(list)}\n${pc.dim("(built-ins only: pass --scope S for the types S's tenant registered)")}`,
        );
        return;
      }
      await withEngine(flags, async (engram) => {
        const types = await engram.relations({ scopes: flags.scope ?? [] });
        printResult({ json: flags.json === true }, types, formatRelations);
      });
    });
  withCommonFlags(
    relations.command('register <name>').description('register a new relation type for the tenant of --scope (recorded as proposed)'),
  )
    .option('--scope <scope>', 'a scope of the tenant the type is for; only that tenant sees it', collect)
    .option('--symmetric', 'edges of this type read the same from both ends')
    .option('--proposed-by <who>', 'who proposes it (default: cli)')
    .option('--description <text>', 'what the relation means')
    .action(
      async (name: string, flags: CommonFlags & { scope?: string[]; symmetric?: boolean; proposedBy?: string; description?: string }) => {
        await withEngine(flags, async (engram) => {
          const type = await engram.registerRelation({
            scope: oneScope(flags.scope, 'relations register'),
            name,
            symmetric: flags.symmetric === true,
            proposedBy: flags.proposedBy ?? 'cli',
            ...(flags.description !== undefined ? { description: flags.description } : {}),
          });
          printResult(
            { json: flags.json === true },
            type,
            (t: RelationType) =>
              `${t.name} ${t.symmetric ? 'symmetric' : 'directed'} · ${t.builtIn ? 'built-in' : `proposed by ${t.proposedBy ?? '?'}`}`,
          );
        });
      },
    );

  withCommonFlags(program.command('edges <id>').description('the edges of a memory; symmetric types read "both" from either end'))
    .option('--scope <scope>', 'scope to read (repeatable)', collect)
    .option('--type <type>', 'only this relation type (repeatable)', collect)
    .option('--as-of <iso>', 'what was true at this instant')
    .option('--known-at <iso>', 'what was believed at this instant')
    .action(async (id: string, flags: ScopeFlags & { type?: string[]; asOf?: string; knownAt?: string }) => {
      await withEngine(flags, async (engram) => {
        const edges = await engram.edges(id, {
          scopes: flags.scope ?? [],
          ...(flags.type !== undefined ? { types: flags.type } : {}),
          ...(flags.asOf !== undefined ? { asOf: instantFromText(flags.asOf) } : {}),
          ...(flags.knownAt !== undefined ? { knownAt: instantFromText(flags.knownAt) } : {}),
        });
        // no edges may mean no such memory in the scopes: NOT_FOUND as every read by id (get is not an access)
        if (edges.length === 0) await engram.get(id, { scopes: flags.scope ?? [] });
        printResult({ json: flags.json === true }, edges, (list: typeof edges) =>
          list.length === 0
            ? pc.dim('(no edges)')
            : list
                .map(
                  (e) =>
                    `${e.direction === 'in' ? '←' : e.direction === 'out' ? '→' : '↔'} ${e.type.padEnd(22)} ${e.other} ${pc.dim(`weight ${e.weight} · ${e.edge.id}`)}`,
                )
                .join('\n'),
        );
      });
    });

  withCommonFlags(
    program
      .command('activate <id>')
      .description('cross-layer spreading activation from a memory: ranked memories per layer with their paths'),
  )
    .option('--scope <scope>', 'scope to read (repeatable)', collect)
    .option('--hops <n>', 'hop limit (default 3)')
    .option('--limit <n>', 'memories per layer (default 10)')
    .option('--as-of <iso>', 'what was true at this instant')
    .option('--known-at <iso>', 'what was believed at this instant')
    .action(async (id: string, flags: ScopeFlags & { hops?: string; limit?: string; asOf?: string; knownAt?: string }) => {
      await withEngine(flags, async (engram) => {
        await engram.processJobs({ maxMs: 10_000 });
        const hops = numberFlag(flags.hops, '--hops', '3');
        const limit = numberFlag(flags.limit, '--limit', '10');
        const result = await engram.activate(id, {
          scopes: flags.scope ?? [],
          ...(hops !== undefined ? { hops } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(flags.asOf !== undefined ? { asOf: instantFromText(flags.asOf) } : {}),
          ...(flags.knownAt !== undefined ? { knownAt: instantFromText(flags.knownAt) } : {}),
        });
        printResult({ json: flags.json === true }, result, formatActivation);
      });
    });
}

function formatRelations(list: readonly RelationType[]): string {
  return list
    .map(
      (t) =>
        `${t.name.padEnd(24)} ${(t.symmetric ? 'symmetric' : 'directed').padEnd(10)} ${t.builtIn ? 'built-in' : `${t.tenant ?? '?'}, proposed by ${t.proposedBy ?? '?'}`}${t.description ? pc.dim(`  ${t.description}`) : ''}`,
    )
    .join('\n');
}

function formatActivation(result: ActivationView): string {
  if (result.ranked.length === 0) return pc.dim('(nothing activated: the memory has no edges or concept refs in these scopes)');
  const lines: string[] = [];
  for (const [layer, list] of Object.entries(result.layers)) {
    if (list.length === 0) continue;
    lines.push(pc.bold(layer));
    for (const item of list) {
      const path = item.path.map((s) => `${s.via === 'edge' ? s.type : s.direction}`).join(' → ');
      lines.push(
        `  ${item.activation.toFixed(3)}  ${item.memory.content.split('\n')[0]?.slice(0, 80)}  ${pc.dim(`${item.id} · hop ${item.hops} · ${path}`)}`,
      );
    }
  }
  return lines.join('\n');
}
