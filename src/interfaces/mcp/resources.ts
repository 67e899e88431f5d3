/**
 * MCP resources: per scope, the procedural rules (`engram://rules/<scope>`) and the profile, the
 * current semantic facts of the scope (`engram://profile/<scope>`), as Markdown and JSON.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { MemoryRecord } from '../../core/memory.js';
import { toMemoryView } from '../../core/memory-view.js';
import type { Scope } from '../../core/scope.js';
import type { ToolContext } from './tool-context.js';
import { isChunkParent } from '../../core/record-kinds.js';
import { isHandedRule } from '../../serving/parts.js';

const MAX_ITEMS = 500;

/** Registers the rules and profile resources of every allowed scope. */
export function registerResources(server: McpServer, context: ToolContext): void {
  for (const scope of context.scopes) {
    const rulesUri = `engram://rules/${scope}`;
    server.registerResource(
      `rules:${scope}`,
      rulesUri,
      {
        title: `Rules of ${scope}`,
        description: `The procedural rules of scope ${scope}, highest priority first: how to behave.`,
        mimeType: 'text/markdown',
      },
      async () => {
        // the rules the context hands an agent: no persona, profile schema or chunked document's parent
        const rules = (await current(context, scope, 'procedural'))
          .filter(isHandedRule)
          .sort((a, b) => priorityOf(b) - priorityOf(a) || a.recordedAt - b.recordedAt);
        const markdown =
          rules.length === 0 ? `# Rules of ${scope}\n\n(none)` : `# Rules of ${scope}\n\n${rules.map((r) => `- ${r.content}`).join('\n')}`;
        return both(rulesUri, markdown, { scope, rules: rules.map(toMemoryView) });
      },
    );
    const profileUri = `engram://profile/${scope}`;
    server.registerResource(
      `profile:${scope}`,
      profileUri,
      {
        title: `Profile of ${scope}`,
        description: `The current facts (semantic layer) of scope ${scope}, most important first.`,
        mimeType: 'text/markdown',
      },
      async () => {
        const facts = (await current(context, scope, 'semantic'))
          .filter((r) => typeof r.data.name !== 'string' && !isChunkParent(r))
          .sort((a, b) => (b.importance ?? 1) - (a.importance ?? 1) || b.recordedAt - a.recordedAt);
        const markdown =
          facts.length === 0
            ? `# Profile of ${scope}\n\n(none)`
            : `# Profile of ${scope}\n\n${facts.map((f) => `- ${f.content}`).join('\n')}`;
        return both(profileUri, markdown, { scope, facts: facts.map(toMemoryView) });
      },
    );
  }
}

async function current(context: ToolContext, scope: Scope, layer: 'procedural' | 'semantic'): Promise<MemoryRecord[]> {
  const records = await context.engram.store.listMemories({ scopes: [scope], layers: [layer], statuses: ['active'], limit: MAX_ITEMS });
  return records.filter((r) => context.engram.isCurrent(r));
}

function priorityOf(record: MemoryRecord): number {
  return typeof record.data.priority === 'number' ? record.data.priority : 0;
}

function both(uri: string, markdown: string, json: Record<string, unknown>): ReadResourceResult {
  return {
    contents: [
      { uri, mimeType: 'text/markdown', text: markdown },
      { uri, mimeType: 'application/json', text: JSON.stringify(json) },
    ],
  };
}
