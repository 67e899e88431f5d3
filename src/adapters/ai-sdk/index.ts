/**
 * `engram/ai-sdk`: Engram for the Vercel AI SDK (`ai`, an optional peer dependency). Any export added
 * here becomes public API.
 */
export { engramTools, type EngramToolsOptions, type RecalledMemory } from './engram-tools.js';
export { engramContextMiddleware, type EngramContextMiddlewareOptions } from './engram-context-middleware.js';
