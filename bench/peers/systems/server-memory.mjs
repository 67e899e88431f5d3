// The official MCP memory server (@modelcontextprotocol/server-memory): a knowledge graph of entities
// with observations in a JSONL file, spoken to over stdio through the MCP SDK's real client, one server
// process (and file) per conversation. Each turn becomes one entity (name = its dia id, type "turn", the
// turn's text as its one observation), created 128 at a time with create_entities. The server embeds
// nothing: search_nodes keeps the entities whose name, type or an observation contains the query as a
// case-insensitive substring, in file order.
//   server-memory           asks search_nodes the question as it is (what the tool contract offers)
//   server-memory-keywords  asks search_nodes once per content word of the question, the way an agent
//                           would use the tool, and ranks turns by how many words found them (ties in
//                           file order); this ranking is the benchmark's, not the server's
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const BATCH = 128;
const STOP = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have how i if in into is it its ' +
    'me my of on or our she he her him his so than that the their them then there these they this those to was we were what ' +
    'when where which while who whom why will with would you your about after before during ever just any some also'
  ).split(' '),
);

/** The content words of a question: lower case, no stop words, no one-letter words, each once. */
export function contentWords(question) {
  return [...new Set((question.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).filter((w) => w.length > 1 && !STOP.has(w)))];
}

const make = (name, keywords) => ({
  name,
  package: '@modelcontextprotocol/server-memory',
  embeds: 'nothing (substring match)',
  /** @param {import('../../peers.mjs').OpenContext} ctx */
  async open(ctx) {
    const entry = createRequire(join(ctx.peersDir, 'package.json')).resolve('@modelcontextprotocol/server-memory/dist/index.js');
    /** @type {Map<string, Client>} conversation → connected client */
    const clients = new Map();
    const connect = async (sampleId) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [entry],
        env: { ...process.env, MEMORY_FILE_PATH: join(ctx.workDir, `${sampleId.replace(/[^A-Za-z0-9_-]/g, '-')}.jsonl`) },
        stderr: 'ignore',
      });
      const client = new Client({ name: 'engram-bench-peers', version: '1' });
      await client.connect(transport);
      clients.set(sampleId, client);
      return client;
    };
    const call = async (client, name, args) => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`server-memory ${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      return result.structuredContent ?? JSON.parse(result.content[0].text);
    };
    const entityName = (dia) => `turn ${dia}`;
    /** @type {Map<string, number>} entity name → its place in the file */
    const fileOrder = new Map();
    const diaOfName = (n) => n.slice('turn '.length);
    return {
      version: ctx.versionOf('@modelcontextprotocol/server-memory'),
      settings: {
        transport: 'stdio (MCP SDK client)',
        query: keywords ? 'one search_nodes per content word, ranked by words matched' : 'the question verbatim',
      },
      async ingest(sampleId, turns) {
        const client = await connect(sampleId);
        turns.forEach((t, i) => fileOrder.set(entityName(t.dia), i));
        for (let i = 0; i < turns.length; i += BATCH) {
          const entities = turns
            .slice(i, i + BATCH)
            .map((t) => ({ name: entityName(t.dia), entityType: 'turn', observations: [t.input.content] }));
          await call(client, 'create_entities', { entities });
        }
      },
      async search(sampleId, question, { k }) {
        const client = clients.get(sampleId);
        if (!keywords) return (await call(client, 'search_nodes', { query: question })).entities.slice(0, k).map((e) => diaOfName(e.name));
        /** @type {Map<string, number>} entity name → words that found it */
        const found = new Map();
        for (const word of contentWords(question)) {
          const { entities } = await call(client, 'search_nodes', { query: word });
          for (const e of entities) found.set(e.name, (found.get(e.name) ?? 0) + 1);
        }
        return [...found.entries()]
          .sort((a, b) => b[1] - a[1] || (fileOrder.get(a[0]) ?? 0) - (fileOrder.get(b[0]) ?? 0))
          .slice(0, k)
          .map(([n]) => diaOfName(n));
      },
      async close() {
        for (const client of clients.values()) await client.close();
      },
    };
  },
});

export const system = make('server-memory', false);
export const keywordSystem = make('server-memory-keywords', true);
