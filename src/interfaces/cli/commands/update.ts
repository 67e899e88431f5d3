/**
 * `engram update <id> --scope S [--content T] [--summary T] [--importance N] [--confidence N] [--tag T]...
 * [--pin | --unpin] [--valid-from T] [--valid-to T|none] [--occurred-at T]`: changes a memory in place
 * (a content change re-embeds it and keeps the old wording in its history). The library validates.
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { instantFromText } from '../../../core/instant.js';
import type { UpdateInput } from '../../../core/schemas.js';
import { collect, oneScope, withCommonFlags, type ScopeFlags } from '../context.js';
import { numberFlag } from '../number-flag.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';
import { formatMemory } from './format.js';

interface UpdateFlags extends ScopeFlags {
  content?: string;
  summary?: string;
  importance?: string;
  confidence?: string;
  tag?: string[];
  pin?: boolean;
  unpin?: boolean;
  validFrom?: string;
  validTo?: string;
  occurredAt?: string;
}

/** Registers `update`. */
export function registerUpdateCommand(program: Command): void {
  withCommonFlags(
    program.command('update <id>').description('change a memory in place: a new wording re-embeds it and keeps the old one in its history'),
  )
    .option('--scope <scope>', 'the scope the memory was written in (exactly one)', collect)
    .option('--content <text>', 'the new wording')
    .option('--summary <text>', 'a new summary')
    .option('--importance <n>', 'importance 0..1')
    .option('--confidence <n>', 'confidence 0..1')
    .option('--tag <tag>', 'a tag (repeatable; the tags given replace all the tags)', collect)
    .option('--pin', 'never decays')
    .option('--unpin', 'decays again like any memory')
    .option('--valid-from <time>', 'when the claim became true (ISO 8601 or epoch ms)')
    .option('--valid-to <time>', 'when the claim stopped being true, or none (true until further notice)')
    .option('--occurred-at <time>', 'when the event happened')
    .action(async (id: string, flags: UpdateFlags) => {
      const json = flags.json === true;
      let scope: string;
      let patch: UpdateInput;
      try {
        // checked before the engine opens: loading the model takes seconds, a missing flag should not
        scope = oneScope(flags.scope, 'update');
        patch = patchOf(flags);
      } catch (error) {
        process.exitCode = printError({ json }, error);
        return;
      }
      await withEngine(flags, async (engram) => {
        printResult({ json }, await engram.update(id, patch, { scope }), formatMemory);
      });
    });
}

/** The changes the flags name; at least one. */
function patchOf(flags: UpdateFlags): UpdateInput {
  if (flags.pin === true && flags.unpin === true) {
    throw new EngramError('INVALID_INPUT', 'update takes --pin or --unpin, not both.');
  }
  const patch: UpdateInput = {
    ...(flags.content !== undefined ? { content: flags.content } : {}),
    ...(flags.summary !== undefined ? { summary: flags.summary } : {}),
    ...(flags.importance !== undefined ? { importance: numberFlag(flags.importance, '--importance', '0.8') } : {}),
    ...(flags.confidence !== undefined ? { confidence: numberFlag(flags.confidence, '--confidence', '0.9') } : {}),
    ...(flags.tag !== undefined ? { tags: flags.tag } : {}),
    ...(flags.pin === true ? { pinned: true } : flags.unpin === true ? { pinned: false } : {}),
    ...(flags.validFrom !== undefined ? { validFrom: instantFromText(flags.validFrom) } : {}),
    ...(flags.validTo !== undefined
      ? { validTo: flags.validTo.trim().toLowerCase() === 'none' ? null : instantFromText(flags.validTo) }
      : {}),
    ...(flags.occurredAt !== undefined ? { occurredAt: instantFromText(flags.occurredAt) } : {}),
  };
  if (Object.keys(patch).length === 0) {
    throw new EngramError(
      'INVALID_INPUT',
      'update needs a change: --content, --summary, --importance, --confidence, --tag, --pin or --unpin, --valid-from, --valid-to or --occurred-at.',
    );
  }
  return patch;
}
