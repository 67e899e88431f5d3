/**
 * `engram/langchain` inside LangChain's own runnables, driven by the scripted chat models of
 * `@langchain/core/utils/testing` (no network) over a real Engram on a temp SQLite file: the retriever in
 * a retrieval chain and behind a tool a tool-calling model calls; the chat history under
 * `RunnableWithMessageHistory`, read back in order from a reopened store. The retriever also finds
 * memories by meaning with the real bge-small-en-v1.5.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Document } from '@langchain/core/documents';
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence, RunnableWithMessageHistory } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { FakeChatModel, FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngramChatMessageHistory, EngramRetriever, type EngramDocumentMetadata } from '../../src/adapters/langchain/index.js';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { Engram, type EmbedderChoice } from '../../src/index.js';
import { PARAPHRASE_TRIPLES } from '../embeddings/paraphrase-triples.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

const formatDocs = (docs: Document[]) => docs.map((doc) => `- ${doc.pageContent}`).join('\n');

describe('EngramRetriever', () => {
  let engram: Engram;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ engram, cleanup } = await tempEngram());
    await engram.remember([
      { scope: 'acme/users/alice', content: 'Alice prefers the window seat on long flights.', layer: 'semantic', tags: ['travel'] },
      { scope: 'acme/users/alice', content: 'Alice is allergic to peanuts.', layer: 'semantic' },
      { scope: 'acme/users/alice', content: 'Alice flew to Tokyo for the design offsite.' },
      { scope: 'acme/users/bob', content: 'Bob prefers the aisle seat on long flights.', layer: 'semantic' },
    ]);
  });
  afterEach(() => cleanup());

  it('returns Documents with id, scope, layer, relevance and why, best first, from its scopes only', async () => {
    const retriever = new EngramRetriever({ engram, scopes: ['acme/users/alice'], k: 3 });
    const docs = await retriever.invoke('which seat on long flights?');
    expect(docs[0]?.pageContent).toBe('Alice prefers the window seat on long flights.');
    const metadata = docs[0]?.metadata as EngramDocumentMetadata;
    expect(metadata).toMatchObject({ scope: 'acme/users/alice', layer: 'semantic', tags: ['travel'] });
    expect(docs[0]?.id).toBe(metadata.id);
    expect(metadata.relevance).toBeGreaterThan(0);
    expect(metadata.relevance).toBeLessThanOrEqual(1);
    expect(Object.keys(metadata.why.channels)).toContain('lexical');
    expect(docs.length).toBeLessThanOrEqual(3);
    expect(docs.every((doc) => doc.metadata.scope === 'acme/users/alice')).toBe(true);
    const relevances = docs.map((doc) => doc.metadata.relevance);
    expect(relevances.length).toBeGreaterThan(1);
  });

  it('filters by layer and by a relevance floor', async () => {
    const episodes = await new EngramRetriever({ engram, scopes: ['acme/users/alice'], layers: ['episodic'] }).invoke('flights to Tokyo');
    expect(episodes.map((doc) => doc.pageContent)).toEqual(['Alice flew to Tokyo for the design offsite.']);
    const strict = await new EngramRetriever({ engram, scopes: ['acme/users/alice'], minRelevance: 1.01 }).invoke('flights');
    expect(strict).toEqual([]);
  });

  it('feeds a retrieval chain: the model receives the recalled memories in its prompt', async () => {
    const retriever = new EngramRetriever({ engram, scopes: ['acme/users/alice'], k: 2 });
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'Answer from these memories:\n{context}'],
      ['human', '{question}'],
    ]);
    // FakeChatModel answers with the text of the messages it was given: the answer is the prompt it saw
    const chain = RunnableSequence.from([
      { context: retriever.pipe(formatDocs), question: new RunnablePassthrough() },
      prompt,
      new FakeChatModel({}),
      new StringOutputParser(),
    ]);
    const answer = await chain.invoke('Which seat does she like on long flights?');
    expect(answer).toContain('- Alice prefers the window seat on long flights.');
    expect(answer).toContain('Which seat does she like on long flights?');
    expect(answer).not.toContain('Bob');
  });

  it('refuses missing or mistyped options when made, with INVALID_INPUT naming the field', async () => {
    const refused = (fields: unknown, pattern: RegExp): void => {
      let caught: unknown;
      try {
        new EngramRetriever(fields as ConstructorParameters<typeof EngramRetriever>[0]);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(Object.keys((fields as object | undefined) ?? {}))).toMatchObject({
        name: 'EngramError',
        code: 'INVALID_INPUT',
      });
      expect((caught as Error).message).toMatch(pattern);
    };
    refused({ engram }, /EngramRetriever: scopes is missing: name the scopes recall may read/);
    refused({ engram, scopes: [] }, /scopes is empty/);
    refused({ engram, scopes: 'acme/users/alice' }, /scopes must be a list of scope paths/);
    refused({ engram, scopes: [42] }, /scopes\.0 must be a list of scope paths/);
    refused({ scopes: ['acme/users/alice'] }, /engram must be an open Engram/);
    refused({ engram, scopes: ['acme/users/alice'], k: 0 }, /k /);
    refused({ engram, scopes: ['acme/users/alice'], minRelevance: 'high' }, /minRelevance must be a number/);
    refused(undefined, /must be an options object/);
    refused({ engram, scope: 'acme/users/alice' }, /scopes is missing.*unknown option\(s\) scope;/);
    // LangChain's own fields still pass through
    const tagged = new EngramRetriever({ engram, scopes: ['acme/users/alice'], tags: ['memory'], verbose: false });
    expect(tagged.tags).toEqual(['memory']);
    expect((await tagged.invoke('peanuts')).length).toBeGreaterThan(0);
  });

  it('serves a tool-calling model: it calls the recall tool, then answers from the tool message', async () => {
    const retriever = new EngramRetriever({ engram, scopes: ['acme/users/alice'], k: 2 });
    const recall = tool(async ({ query }) => formatDocs(await retriever.invoke(query)), {
      name: 'recall',
      description: 'Search long-term memory.',
      schema: z.object({ query: z.string() }),
    });
    // the scripted turn: first a tool call (FakeStreamingChatModel), then an answer echoing what it read (FakeChatModel)
    const caller = new FakeStreamingChatModel({
      chunks: [
        new AIMessageChunk({
          content: '',
          tool_calls: [{ id: 'call-1', name: 'recall', args: { query: 'food allergy' }, type: 'tool_call' }],
        }),
      ],
    }).bindTools([recall]);
    const answerer = new FakeChatModel({});
    const messages: BaseMessage[] = [new HumanMessage('Can I order the satay for Alice?')];

    const step = await caller.invoke(messages);
    messages.push(step);
    expect(step.tool_calls?.map((call) => call.name)).toEqual(['recall']);
    for (const call of step.tool_calls ?? []) messages.push((await recall.invoke({ ...call, type: 'tool_call' })) as ToolMessage);
    const answer = await answerer.invoke(messages);

    expect(messages.at(-1)).toBeInstanceOf(ToolMessage);
    expect(answer.text).toContain('Alice is allergic to peanuts.');
  });
});

describe('EngramChatMessageHistory', () => {
  let dir: string;
  let remove: () => void;
  let engram: Engram;
  beforeEach(async () => {
    ({ dir, cleanup: remove } = tempDir());
    engram = await Engram.open({ path: join(dir, 'engram.db'), embedder: 'hash' });
  });
  afterEach(async () => {
    await engram.close();
    remove();
  });

  it('keeps a RunnableWithMessageHistory conversation: the model sees earlier turns, a reopened store reads them in order', async () => {
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'You are a travel assistant.'],
      new MessagesPlaceholder('history'),
      ['human', '{input}'],
    ]);
    const chat = new RunnableWithMessageHistory({
      runnable: prompt.pipe(new FakeChatModel({})),
      getMessageHistory: (sessionId: string) => new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId }),
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: 'trip-42' } };
    await chat.invoke({ input: 'I am flying to Lisbon on Friday.' }, config);
    const second = await chat.invoke({ input: 'Where am I flying?' }, config);
    // the second call's prompt held the first turn, read back from Engram
    expect(second.text).toContain('I am flying to Lisbon on Friday.');
    await chat.invoke({ input: 'Another conversation.' }, { configurable: { sessionId: 'trip-43' } });
    await engram.close();

    engram = await Engram.open({ path: join(dir, 'engram.db'), embedder: 'hash' });
    const history = new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId: 'trip-42' });
    const messages = await history.getMessages();
    expect(messages.map((message) => message.type)).toEqual(['human', 'ai', 'human', 'ai']);
    expect(messages[0]?.text).toBe('I am flying to Lisbon on Friday.');
    expect(messages[2]?.text).toBe('Where am I flying?');
    // the conversation is long-term memory too
    const { hits } = await engram.recall('Lisbon', { scopes: ['acme/users/alice'] });
    expect(hits[0]?.content).toBe('I am flying to Lisbon on Friday.');
    expect(hits[0]?.layer).toBe('episodic');
  });

  it('keeps many messages added in one call in order, each role and tool call restored', async () => {
    const history = new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId: 'Session-A' });
    const turns: BaseMessage[] = [new SystemMessage('Be brief.')];
    for (let i = 0; i < 130; i++) turns.push(new HumanMessage(`question ${i}`), new AIMessage(`answer ${i}`));
    turns.push(
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'recall', args: { query: 'x' }, type: 'tool_call' }] }),
      new ToolMessage({ content: 'nothing found', tool_call_id: 'c1', name: 'recall' }),
    );
    await history.addMessages(turns);
    await new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId: 'session-a' }).addMessage(
      new HumanMessage('other session, same tag in another case'),
    );

    const back = await history.getMessages();
    expect(back.map((message) => message.text)).toEqual(turns.map((message) => message.text));
    expect(back.map((message) => message.type)).toEqual(turns.map((message) => message.type));
    const call = back.at(-2) as AIMessage;
    expect(call.tool_calls?.[0]).toMatchObject({ id: 'c1', name: 'recall', args: { query: 'x' } });
    expect((back.at(-1) as ToolMessage).tool_call_id).toBe('c1');
  });

  it('clears a session without touching another, and refuses a bad session id', async () => {
    const a = new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId: 'a' });
    const b = new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId: 'b' });
    await a.addUserMessage('hello from a');
    await b.addUserMessage('hello from b');
    await a.clear();
    expect(await a.getMessages()).toEqual([]);
    expect((await b.getMessages()).map((m) => m.text)).toEqual(['hello from b']);
    const { hits } = await engram.recall('hello from a', { scopes: ['acme/users/alice'] });
    expect(hits.map((hit) => hit.content)).not.toContain('hello from a');
    expect(() => new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId: '' })).toThrow(
      /sessionId must be 1-90 characters/,
    );
    await expect(new EngramChatMessageHistory({ engram, scope: 'not a scope', sessionId: 'x' }).addUserMessage('hi')).rejects.toMatchObject(
      { code: 'INVALID_INPUT' },
    );
    const made = (fields: unknown) => () =>
      new EngramChatMessageHistory(fields as ConstructorParameters<typeof EngramChatMessageHistory>[0]);
    expect(made({ engram, sessionId: 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/scope is missing/) }),
    );
    expect(made({ engram, scope: 'acme/users/alice' })).toThrow(/sessionId must be 1-90 characters/);
    expect(made({ engram, scope: 'acme/users/alice', sessionId: 'x', capture: 'yes' })).toThrow(/capture must be true or false/);
    expect(made({ engram, scope: 'acme/users/alice', sessionId: 'x', sesionId: 'y' })).toThrow(/unknown option\(s\) sesionId/);
  });

  it('works with a scripted list model as the chat model', async () => {
    const chat = new RunnableWithMessageHistory({
      runnable: ChatPromptTemplate.fromMessages([new MessagesPlaceholder('history'), ['human', '{input}']]).pipe(
        new FakeListChatModel({ responses: ['Noted.', 'You said Lisbon.'] }),
      ),
      getMessageHistory: (sessionId: string) => new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId }),
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    await chat.invoke({ input: 'Lisbon.' }, { configurable: { sessionId: 's' } });
    await chat.invoke({ input: 'Where?' }, { configurable: { sessionId: 's' } });
    const messages = await new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId: 's' }).getMessages();
    expect(messages.map((m) => `${m.type}:${m.text}`)).toEqual(['human:Lisbon.', 'ai:Noted.', 'human:Where?', 'ai:You said Lisbon.']);
  });
});

const cacheDir = resolveModelCacheDir(process.env, homedir());
const modelMissing = hasModelFiles(cacheDir, 'bge-small-en-v1.5')
  ? ''
  : ` (skipped: bge-small-en-v1.5 is not in ${cacheDir}; run "engram models pull bge-small-en-v1.5")`;

describe.skipIf(modelMissing !== '')(`EngramRetriever with the real bge-small-en-v1.5${modelMissing}`, () => {
  /** How many of the paraphrase queries get their paraphrase (few shared words) among the first three documents. */
  async function foundInTop3(embedder: EmbedderChoice): Promise<number> {
    const temp = tempDir();
    const engram = await Engram.open({ path: join(temp.dir, 'engram.db'), embedder, cacheDir });
    try {
      await engram.remember(
        PARAPHRASE_TRIPLES.flatMap((triple) => [triple.right, triple.distractor]).map((content) => ({
          scope: 'acme/kb',
          content,
          layer: 'semantic' as const,
        })),
      );
      const retriever = new EngramRetriever({ engram, scopes: ['acme/kb'], k: 3 });
      let found = 0;
      for (const triple of PARAPHRASE_TRIPLES)
        if ((await retriever.invoke(triple.query)).some((doc) => doc.pageContent === triple.right)) found++;
      return found;
    } finally {
      await engram.close();
      temp.cleanup();
    }
  }

  it('finds a memory by meaning where words barely overlap, far more often than the hash embedder', async () => {
    // 40 memories (each paraphrase and its distractor); some distractors share a word with another query
    const model = await foundInTop3('onnx:bge-small-en-v1.5');
    const hash = await foundInTop3('hash');
    expect(model).toBe(PARAPHRASE_TRIPLES.length);
    expect(model - hash).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
