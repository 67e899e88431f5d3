/**
 * A Vercel AI SDK language-model middleware that gives every call the memory of its turn: it reads the
 * latest user message, asks Engram for the context of that message and puts the Markdown in a system
 * message ahead of the conversation. Wrap any model with `wrapLanguageModel`.
 */
import type { LanguageModelMiddleware } from 'ai';
import { z } from 'zod';
import type { Engram, Scope } from '../../index.js';
import { countOption, engramOption, optionsObject, parseAdapterOptions, scopesOption } from '../adapter-options.js';

type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type PromptMessage = CallOptions['prompt'][number];

/** Longest message `Engram.context` accepts; a longer turn is cut, keeping its end (the newest words). */
const MAX_MESSAGE_CHARS = 10_000;

/** Options of {@link engramContextMiddleware}. */
export interface EngramContextMiddlewareOptions {
  /** The open store the context is read from. */
  engram: Engram;
  /** The scopes the context may read, e.g. the user's scope and the team's. */
  scopes: readonly Scope[];
  /** Token budget of the injected context (default: Engram's, 2000). */
  maxTokens?: number;
  /** How many relevant past episodes to include (default 5). */
  episodes?: number;
  /** Time budget of the context in ms (default: Engram's, 50); past it, parts not ready are left out. */
  budgetMs?: number;
  /** The line that introduces the memory to the model. */
  heading?: string;
}

const middlewareOptionsSchema = optionsObject(
  {
    engram: engramOption,
    scopes: scopesOption('the context may read'),
    maxTokens: countOption(1),
    episodes: countOption(0),
    budgetMs: z.number({ error: 'must be a number of milliseconds' }).positive().optional(),
    heading: z.string({ error: 'must be text' }).optional(),
  },
  "{ engram, scopes: ['acme/users/alice'] }",
);

const DEFAULT_HEADING = 'What you remember that matters for this turn (from long-term memory; use it when relevant, do not recite it):';

/**
 * The middleware. Calls without a user message, or whose context is empty, pass through unchanged. Its
 * options are checked here: a missing or mistyped one throws `EngramError` `INVALID_INPUT` naming the field.
 *
 * @example
 * ```ts
 * import { generateText, wrapLanguageModel } from 'ai';
 * import { engramContextMiddleware } from 'engram/ai-sdk';
 *
 * const withMemory = wrapLanguageModel({ model, middleware: engramContextMiddleware({ engram, scopes: ['acme/users/alice'] }) });
 * const { text } = await generateText({ model: withMemory, prompt: 'Book me a seat.' });
 * ```
 */
export function engramContextMiddleware(options: EngramContextMiddlewareOptions): LanguageModelMiddleware {
  parseAdapterOptions(middlewareOptionsSchema, options, 'engramContextMiddleware');
  const { engram, heading = DEFAULT_HEADING } = options;
  const scopes = [...options.scopes];
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const message = latestUserText(params.prompt);
      if (message === '') return params;
      const context = await engram.context({
        scopes,
        message: message.slice(-MAX_MESSAGE_CHARS),
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
        ...(options.episodes !== undefined ? { episodes: options.episodes } : {}),
        ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
      });
      // the Markdown has a section for each part with something in it: none, nothing to add
      if (!context.markdown.includes('\n## ')) return params;
      return { ...params, prompt: withMemory(params.prompt, `${heading}\n\n${context.markdown}`) };
    },
  };
}

/** The text of the last user message of a prompt ('' when there is none). */
function latestUserText(prompt: CallOptions['prompt']): string {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index] as PromptMessage;
    if (message.role !== 'user') continue;
    return message.content
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('\n')
      .trim();
  }
  return '';
}

/** The prompt with the memory as a system message after the application's own system messages. */
function withMemory(prompt: CallOptions['prompt'], memory: string): CallOptions['prompt'] {
  const leading = prompt.findIndex((message) => message.role !== 'system');
  const at = leading === -1 ? prompt.length : leading;
  return [...prompt.slice(0, at), { role: 'system', content: memory }, ...prompt.slice(at)];
}
