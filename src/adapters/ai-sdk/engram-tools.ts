/**
 * Engram's memory as Vercel AI SDK tools: `remember`, `recall` and `context`, each a `tool()` with a
 * zod input schema. The scopes are fixed by the application, never chosen by the model, so a model
 * cannot read or write outside the tenant it serves.
 */
import { tool } from 'ai';
import { z } from 'zod';
import type { Engram, Scope } from '../../index.js';
import { countOption, engramOption, optionsObject, parseAdapterOptions, scopeOption, scopesOption } from '../adapter-options.js';

/** Options of {@link engramTools}. */
export interface EngramToolsOptions {
  /** The open store the tools read and write. */
  engram: Engram;
  /** Where `remember` writes, e.g. `"acme/users/alice"`. */
  scope: Scope;
  /** What `recall` and `context` read (default: `[scope]`), e.g. the user's scope and the team's. */
  readScopes?: readonly Scope[];
  /** Most hits `recall` returns when the model does not say (default 8). */
  k?: number;
  /** Time budget of the `context` tool in ms (default: Engram's, 50); past it, parts not ready are left out. */
  contextBudgetMs?: number;
}

const toolsOptionsSchema = optionsObject(
  {
    engram: engramOption,
    scope: scopeOption('remember writes to'),
    readScopes: scopesOption('recall and context may read').optional(),
    k: countOption(1),
    contextBudgetMs: z.number({ error: 'must be a number of milliseconds' }).positive().optional(),
  },
  "{ engram, scope: 'acme/users/alice' }",
);

const rememberInput = z.object({
  content: z
    .string()
    .min(1)
    .max(20_000)
    .describe('The fact, event or instruction to keep, in one self-contained sentence or short paragraph.'),
  layer: z
    .enum(['episodic', 'semantic', 'procedural'])
    .optional()
    .describe('episodic: an event (default); semantic: a lasting fact; procedural: a rule to follow.'),
  tags: z.array(z.string().min(1).max(100)).max(20).optional(),
  importance: z.number().min(0).max(1).optional().describe('0..1; how much this should resist forgetting.'),
});

const recallInput = z.object({
  query: z.string().min(1).max(2_000).describe('What to look for, in natural language.'),
  k: z.number().int().min(1).max(50).optional().describe('How many memories to return.'),
});

const contextInput = z.object({
  message: z.string().min(1).max(10_000).describe("The user's current message: the context is assembled for it."),
});

/** What the `recall` tool returns for each memory: what a model needs to use it and cite it. */
export interface RecalledMemory {
  id: string;
  content: string;
  layer: string;
  scope: string;
  relevance: number;
  occurredAt: string | null;
  validFrom: string;
}

/**
 * The `remember`, `recall` and `context` tools over one store, for `generateText({ tools })`.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { Engram } from 'engram';
 * import { engramTools } from 'engram/ai-sdk';
 *
 * const engram = await Engram.open({ path: 'memory.db' });
 * const { text } = await generateText({
 *   model,
 *   tools: engramTools({ engram, scope: 'acme/users/alice' }),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Where do I like to sit?',
 * });
 * ```
 */
export function engramTools(options: EngramToolsOptions) {
  parseAdapterOptions(toolsOptionsSchema, options, 'engramTools');
  const { engram, scope } = options;
  const scopes = [...(options.readScopes ?? [scope])];
  const defaultK = options.k ?? 8;
  return {
    remember: tool({
      description: 'Store something worth remembering across conversations: a fact about the user, a decision, an event or a rule.',
      inputSchema: rememberInput,
      execute: async ({ content, layer, tags, importance }) => {
        const result = await engram.remember({
          scope,
          content,
          ...(layer !== undefined ? { layer } : {}),
          ...(tags !== undefined ? { tags } : {}),
          ...(importance !== undefined ? { importance } : {}),
        });
        return { id: result.id, action: result.action };
      },
    }),
    recall: tool({
      description:
        'Search long-term memory for what is relevant to a query: past conversations, facts about the user, rules. Returns the best memories first.',
      inputSchema: recallInput,
      execute: async ({ query, k }): Promise<{ memories: RecalledMemory[] }> => {
        const { hits } = await engram.recall(query, { scopes, k: k ?? defaultK });
        return {
          memories: hits.map((hit) => ({
            id: hit.id,
            content: hit.content,
            layer: hit.layer,
            scope: hit.scope,
            relevance: Math.round(hit.relevance * 1000) / 1000,
            occurredAt: hit.occurredAt,
            validFrom: hit.validFrom,
          })),
        };
      },
    }),
    context: tool({
      description:
        'Assemble what memory knows that matters for a message: rules to follow, the user profile, relevant knowledge and past episodes, as Markdown.',
      inputSchema: contextInput,
      execute: async ({ message }) => {
        const context = await engram.context({
          scopes,
          message,
          ...(options.contextBudgetMs !== undefined ? { budgetMs: options.contextBudgetMs } : {}),
        });
        return { markdown: context.markdown, tokens: context.tokens };
      },
    }),
  };
}
