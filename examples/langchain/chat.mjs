#!/usr/bin/env node
// A chat agent with long-term memory on LangChain.js, runnable offline.
//
//   npm run build && node examples/langchain/chat.mjs              # the scripted demo conversation
//   node examples/langchain/chat.mjs "I am vegetarian." "What should I cook tonight?"
//   ENGRAM_DB=./memory.db node examples/langchain/chat.mjs ...     # keep the memory between runs
//
// The conversation is kept by EngramChatMessageHistory (each turn an episode of the session), and each
// turn's prompt gets the memories EngramRetriever recalls for it. The model is scripted (a
// RunnableLambda that answers from the memories in its prompt); swap in a real chat model, e.g.
// `new ChatOpenAI({ model: 'gpt-4o-mini' })`, and nothing else changes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableLambda, RunnablePassthrough, RunnableWithMessageHistory } from '@langchain/core/runnables';
import { Engram } from 'engram';
import { EngramChatMessageHistory, EngramRetriever } from 'engram/langchain';

const path = process.env.ENGRAM_DB ?? join(mkdtempSync(join(tmpdir(), 'engram-langchain-')), 'memory.db');
const scope = 'demo/users/alice';
const turns =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['I am allergic to peanuts.', 'I moved to Lisbon in March.', 'Which snack should I avoid on my flight?'];

const engram = await Engram.open({ path });
try {
  // capture: facts the user states about themselves also become semantic memories, which the retriever reads
  const retriever = new EngramRetriever({ engram, scopes: [scope], k: 3, layers: ['semantic', 'procedural'] });
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'You are a helpful travel assistant. What you remember:\n{memories}'],
    new MessagesPlaceholder('history'),
    ['human', '{input}'],
  ]);
  const withMemories = RunnablePassthrough.assign({
    memories: async ({ input }) => (await retriever.invoke(input)).map((doc) => `- ${doc.pageContent}`).join('\n'),
  });
  const chat = new RunnableWithMessageHistory({
    runnable: withMemories.pipe(prompt).pipe(scriptedModel()),
    getMessageHistory: (sessionId) => new EngramChatMessageHistory({ engram, scope, sessionId, capture: true }),
    inputMessagesKey: 'input',
    historyMessagesKey: 'history',
  });
  for (const turn of turns) {
    const reply = await chat.invoke({ input: turn }, { configurable: { sessionId: 'demo-session' } });
    console.log(`you:   ${turn}\nagent: ${reply.text}\n`);
  }
  console.log(`memory: ${path}`);
} finally {
  await engram.close();
}

/** A stand-in for a chat model: acknowledges statements, answers questions from the memories in the system message. */
function scriptedModel() {
  return RunnableLambda.from((value) => {
    const messages = value.toChatMessages();
    const question = messages.at(-1).text;
    if (!question.trim().endsWith('?')) return new AIMessage('Noted.');
    const remembered = messages[0].text.split('\n').filter((line) => line.startsWith('- ') && line.slice(2) !== question);
    return new AIMessage(
      remembered.length > 0 ? `From what I remember:\n${remembered.join('\n')}` : 'I do not remember anything about that.',
    );
  });
}
