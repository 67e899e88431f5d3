/**
 * `engram context --scope S [--goal G] [--objects a,b] [--people p,q] [--budget-ms N] [--max-tokens N] MESSAGE`
 * and `engram predict --scope S --episode FILE.json`.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import pc from 'picocolors';
import type { PredictResult, StructuredContext } from '../../../serving/index.js';
import { EngramError } from '../../../core/errors.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';
import { decodeTextFile } from '../text-file.js';
import { numberFlag } from '../number-flag.js';
import { localWallClock } from '../local-wall-clock.js';

interface ContextFlags extends CommonFlags {
  timeZone?: string;
  scope?: string[];
  goal?: string;
  objects?: string;
  people?: string;
  budgetMs?: string;
  maxTokens?: string;
  episodes?: string;
  chains?: boolean;
}

interface PredictFlags extends CommonFlags {
  scope?: string[];
  episode?: string;
  limit?: string;
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Registers `context` and `predict`. */
export function registerContextCommands(program: Command): void {
  withCommonFlags(
    program.command('context [message...]').description('the context for one turn, within a time and token budget (Markdown, or --json)'),
  )
    .option('--scope <scope>', 'scope to read (repeatable; at least one)', collect)
    .option('--goal <goal>', 'the current goal (percept)')
    .option('--objects <a,b>', 'perceived objects, comma-separated')
    .option('--people <a,b>', 'perceived people, comma-separated')
    .option('--budget-ms <n>', 'wall-clock budget in milliseconds (default 50)')
    .option('--max-tokens <n>', 'token budget, approximate (default 2000)')
    .option('--episodes <n>', 'relevant episodes to include (default 5)')
    .option('--persona', "re-rank knowledge and episodes by the scopes' persona")
    .option('--chains', 'add the decision chains of what is relevant, whole')
    .option('--time-zone <zone>', "IANA time zone for dates in the message, e.g. Europe/Lisbon (default: this machine's)")
    .action(async (words: string[], flags: ContextFlags & { persona?: boolean }) => {
      await withEngine(flags, async (engram) => {
        const objects = list(flags.objects);
        const people = list(flags.people);
        const percept = {
          ...(objects !== undefined ? { objects } : {}),
          ...(people !== undefined ? { people } : {}),
          ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
        };
        const budgetMs = numberFlag(flags.budgetMs, '--budget-ms', '50');
        const maxTokens = numberFlag(flags.maxTokens, '--max-tokens', '2000');
        const episodes = numberFlag(flags.episodes, '--episodes', '5');
        // A CLI process is cold: load statements, index and analysers first, outside the budget.
        const message = words.join(' ');
        const perceived = Object.keys(percept).length > 0 ? { percept } : {};
        if (message.trim() !== '' || perceived.percept !== undefined)
          await engram.warmContext({ scopes: flags.scope ?? [], message, ...perceived });
        const result = await engram.context({
          scopes: flags.scope ?? [],
          message,
          ...perceived,
          ...(budgetMs !== undefined ? { budgetMs } : {}),
          ...(maxTokens !== undefined ? { maxTokens } : {}),
          ...(episodes !== undefined ? { episodes } : {}),
          ...(flags.persona === true ? { persona: true } : {}),
          ...(flags.chains === true ? { chains: true } : {}),
          ...localWallClock(flags.timeZone),
        });
        printResult({ json: flags.json === true }, result, (ctx: StructuredContext) => ctx.markdown);
      });
    });

  withCommonFlags(program.command('predict').description('pattern completion: likely actions and outcomes for a forming episode'))
    .option('--scope <scope>', 'scope to read (repeatable; at least one)', collect)
    .option('--episode <file>', 'the forming episode as JSON ({"perception": {...}, "context": {...}}); "-" reads stdin')
    .option('--limit <n>', 'at most this many predictions (default 5)')
    .action(async (flags: PredictFlags) => {
      await withEngine(flags, async (engram) => {
        const episode = readEpisode(flags.episode);
        const limit = numberFlag(flags.limit, '--limit', '5');
        const result = await engram.predict({
          scopes: flags.scope ?? [],
          episode,
          ...(limit !== undefined ? { limit } : {}),
        });
        printResult({ json: flags.json === true }, result, formatPredictions);
      });
    });
}

function readEpisode(path: string | undefined): Record<string, unknown> {
  if (path === undefined) {
    throw new EngramError(
      'INVALID_INPUT',
      'Invalid input: predict needs --episode FILE.json (or --episode - to read stdin), e.g. {"perception":{"objects":["mug"]},"context":{"goal":"grasp_mug"}}.',
    );
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (error) {
    throw new EngramError(
      'INVALID_INPUT',
      `Invalid input: cannot read the episode file "${path}": ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}. Pass a readable JSON file.`,
      { cause: error },
    );
  }
  const text = decodeTextFile(bytes, path === '-' ? 'the episode on stdin' : `--episode ${path}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EngramError('INVALID_INPUT', `Invalid input: the episode file "${path}" is not JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new EngramError(
      'INVALID_INPUT',
      `Invalid input: the episode file "${path}" must hold one JSON object with perception/context fields.`,
    );
  }
  // A file written for `remember` may carry scope/layer/outcome: only the forming part is used.
  const { scope: _scope, layer: _layer, outcome: _outcome, ...episode } = value as Record<string, unknown>;
  return episode;
}

function formatPredictions(result: PredictResult): string {
  if (result.predictions.length === 0) return pc.dim(`(no predictions: ${result.considered} matching episodes with an action or outcome)`);
  return result.predictions
    .map(
      (p, i) =>
        `${pc.bold(String(i + 1).padStart(2))}. ${p.action} → ${p.outcome === 'success' ? pc.green('success') : pc.red('failure')}  p=${p.successProbability}  confidence ${p.confidence}  (${p.support} episodes)\n    ${pc.dim(p.supportingEpisodeIds.join(' '))}`,
    )
    .join('\n');
}
