/** Input schemas of the sleep cycle, shared by the library, CLI, MCP and HTTP. */
import { z } from 'zod';
import { PHASES } from './config.js';

const scopeText = z.string().min(1).max(512);

export const consolidateInputSchema = z
  .object({
    scope: scopeText,
    phases: z.array(z.enum(PHASES)).min(1).optional(),
  })
  .strict();

export const endSessionInputSchema = z
  .object({
    scope: scopeText,
    sessionId: z.string().min(1).max(256),
  })
  .strict();

export type ConsolidateOptions = z.infer<typeof consolidateInputSchema>;
export type EndSessionOptions = z.infer<typeof endSessionInputSchema>;

/** Input of `decay`: one scope; `dryRun` reports without writing. */
export const decayInputSchema = z
  .object({
    scope: scopeText,
    dryRun: z.boolean().optional(),
  })
  .strict();
export type DecayInput = z.infer<typeof decayInputSchema>;
