/**
 * Corrections the capture must not lose: a correction lead-in ("Actually", "No wait", "Scratch that")
 * read past before the rules and kept as one marker, facts about the people the user names, sums of
 * money, a correction answered across turns ("Which day do deploys happen now?" → "Thursday."), and
 * needs, intentions and banter left out. End to end on a real SQLite store (hash embedder): the
 * corrected claim supersedes the old one, a restatement merges.
 */
import { describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { answeredQuestions, captureClaims, notAClaim, readAnswer } from '../../../src/core/write/capture/index.js';
import type { ParsedRememberInput } from '../../../src/core/schemas.js';
import { enginesPerTest } from './engines.js';

const { open } = enginesPerTest();
const claimsOf = (text: string): string[] => captureClaims({ content: `user: ${text}` });

describe('correction lead-ins are read past', () => {
  it('a preference opened by a correction word is a claim, worded with one marker', () => {
    expect(claimsOf('Actually I prefer coffee.')).toEqual(['Actually, I prefer coffee.']);
    expect(claimsOf('No wait, I prefer coffee.')).toEqual(['Actually, I prefer coffee.']);
    expect(claimsOf('Actually, I like my steak rare.')).toEqual(['Actually, I like my steak rare.']);
    expect(claimsOf('Scratch that, I want the green sofa.')).toEqual(['Actually, I want the green sofa.']);
    expect(claimsOf('On second thought I want the green sofa.')).toEqual(['Actually, I want the green sofa.']);
    expect(claimsOf('Wait, actually I moved to Porto.')).toEqual(['Actually, I moved to Porto.']);
    expect(claimsOf("Sorry, I meant my sister's birthday is May 14.")).toEqual(["Actually, my sister's birthday is May 14."]);
  });

  it('conversational lead-ins are dropped from the claim; a leading time adverbial is no unnamed "these"', () => {
    expect(claimsOf('Honestly I love Rust more now.')).toEqual(['I love Rust more now.']);
    expect(claimsOf('Just a reminder, standup is at 10 now.')).toEqual(['Standup is at 10 now.']);
    expect(claimsOf('These days I prefer window seats.')).toEqual(['These days I prefer window seats.']);
    expect(claimsOf('These days we use Bun.')).toEqual(['These days we use Bun.']);
    expect(notAClaim('these are the slow ones')).toBe('deictic');
    expect(notAClaim('these days my sister thinks Rust is overrated')).toBe('other-person');
  });
});

describe('sentence ends', () => {
  it('a title or an initial ends no sentence: the claim keeps the name', () => {
    expect(claimsOf('My dentist is Dr. Patel.')).toEqual(['My dentist is Dr. Patel.']);
    expect(claimsOf('Our HQ is in Washington D.C. now. We use pnpm.')).toEqual(['Our HQ is in Washington D.C. now.', 'We use pnpm.']);
  });
});

describe('whose words and what counts as code', () => {
  it('keeps plain facts about the people the user names, drops their opinions and wishes', () => {
    for (const fact of ['My sister lives in Porto.', 'My manager is Priya.', 'Our CTO is Raj.', "My sister's birthday is May 4."])
      expect(claimsOf(fact), fact).toEqual([fact]);
    for (const opinion of ['my sister thinks Rust is overrated', 'my boss wants the report by Friday', 'my manager prefers Jira'])
      expect(notAClaim(opinion), opinion).toBe('other-person');
  });

  it('a sum of money is a value; shell variables and prompts are code', () => {
    for (const fact of ['The rent is $1800.', 'The budget is $8k.', 'The budget is now $12k.', 'Our rent is €1,800.', 'The loan is £2.5m.'])
      expect(claimsOf(fact), fact).toEqual([fact]);
    for (const code of ['set $HOME before running it', 'use ${x} in the template', '$ npm install', 'the path is in $PATH for us'])
      expect(notAClaim(code), code).toBe('code');
  });

  it('needs, intentions and banter are not stable facts', () => {
    expect(notAClaim('I need to move the haircut')).toBe('plan');
    expect(notAClaim('We need a package manager for the new repo')).toBe('plan');
    expect(notAClaim('Lol the coffee machine on 4 is broken again')).toBe('chatter');
    expect(claimsOf('Hey, starting on the ledger rewrite this week.')).toEqual([]);
    // a requirement stays a claim
    expect(claimsOf('We need to support Safari 15.')).toEqual(['We need to support Safari 15.']);
    expect(claimsOf('Code reviews need two approvals before merge.')).toEqual(['Code reviews need two approvals before merge.']);
  });
});

describe('an answer put back into its question', () => {
  it('names the subject the question asks about, and states nothing without one', () => {
    expect(readAnswer('Which day do deploys happen now?', 'Thursday.')).toEqual({ fact: 'Deploys happen on Thursday now.' });
    expect(readAnswer('Which day is it [the piano lesson] on now?', 'Thursday.')).toEqual({
      fact: 'The piano lesson is on Thursday now.',
    });
    expect(readAnswer('What time is standup now?', '10')).toEqual({ fact: 'Standup is at 10 now.' });
    expect(readAnswer('Which city do you live in now?', 'Porto')).toEqual({ fact: 'I live in Porto now.' });
    // an unnamed "it", the asker's own action, a generic topic: no fact
    expect(readAnswer('Which day is it on now?', 'Thursday.')).toBeUndefined();
    expect(readAnswer('Which day should I move the haircut to?', 'Thursday')).toBeUndefined();
    expect(readAnswer('What test runner do you want me to use?', 'Vitest')).toEqual({ fact: 'The test runner is Vitest.' });
  });
});

describe('the "it" of a question', () => {
  const turns = (...contents: string[]): ParsedRememberInput[] =>
    contents.map(
      (content, i) => ({ scope: 's', content, capture: true, source: { conversationId: 'c', messageId: `m${i}` } }) as ParsedRememberInput,
    );

  it('is what the user turn before it spoke of, when the assistant asks nothing else', () => {
    const inputs = turns('user: The piano lesson moved.', 'assistant: Which day is it on now?', 'user: Thursday.');
    expect(answeredQuestions(inputs).answers.get(inputs[2] as ParsedRememberInput)).toBe('Which day is it [the piano lesson] on now?');
  });

  it('stays unresolved when the assistant spoke of something else first, or asks a yes/no question', () => {
    const own = turns(
      'user: The piano lesson moved.',
      'assistant: I found a stale cache folder in your build output. Which folder is it in?',
      'user: tmp',
    );
    expect(answeredQuestions(own).answers.get(own[2] as ParsedRememberInput)).toBe('Which folder is it in?');
    const yesNo = turns('user: The piano lesson moved.', 'assistant: Is that on a weekday?', 'user: Yes');
    expect(answeredQuestions(yesNo).answers.get(yesNo[2] as ParsedRememberInput)).toBe('Is that on a weekday?');
  });
});

const SCOPE = 'me/users/ana';
async function say(engram: Engram, text: string, messageId: string, conversationId = 'c1') {
  const result = await engram.remember({
    scope: SCOPE,
    content: text,
    capture: true,
    source: { system: 'test', conversationId, messageId },
  });
  return result.claims ?? [];
}
async function claims(engram: Engram): Promise<{ active: string[]; superseded: string[] }> {
  const items = (await engram.list({ scopes: [SCOPE], layers: ['semantic'], statuses: ['active', 'superseded'], limit: 50 })).items;
  const of = (status: string) =>
    items
      .filter((i) => i.status === status)
      .map((i) => i.content)
      .sort();
  return { active: of('active'), superseded: of('superseded') };
}

describe('corrections end to end (SQLite, hash embedder)', () => {
  const corrections: [string, string, string][] = [
    ['I prefer tea.', 'user: Actually I prefer coffee.', 'Actually, I prefer coffee.'],
    ['I prefer tea.', 'user: No wait, I prefer coffee.', 'Actually, I prefer coffee.'],
    ['I like my steak medium.', 'user: Actually, I like my steak rare.', 'Actually, I like my steak rare.'],
    ['I want the blue sofa.', 'user: Scratch that, I want the green sofa.', 'Actually, I want the green sofa.'],
    ['I want the blue sofa.', 'user: On second thought I want the green sofa.', 'Actually, I want the green sofa.'],
    ['My manager is Priya.', 'user: My manager is now Tom.', 'My manager is now Tom.'],
    ['The budget is $8k.', 'user: The budget is now $12k.', 'The budget is now $12k.'],
    ["My sister's birthday is May 4.", "user: Sorry, I meant my sister's birthday is May 14.", "Actually, my sister's birthday is May 14."],
  ];
  for (const [before, correction, expected] of corrections) {
    it(`"${correction}" supersedes "${before}"`, async () => {
      const engram = await open();
      const [first] = await say(engram, `user: ${before}`, 'm1');
      const [second] = await say(engram, correction, 'm2');
      expect(second).toMatchObject({ action: 'superseded', superseded: [first?.id] });
      expect(await claims(engram)).toEqual({ active: [expected], superseded: [before] });
    });
  }

  it('a restatement behind a reminder merges with the fact it repeats', async () => {
    const engram = await open();
    const [first] = await say(engram, 'user: Standup is at 10 now.', 'm1');
    expect(await say(engram, 'user: Just a reminder, standup is at 10 now.', 'm2')).toEqual([{ id: first?.id, action: 'merged' }]);
    expect((await claims(engram)).active).toEqual(['Standup is at 10 now.']);
  });

  it('a correction answered across writes supersedes with the subject its question names', async () => {
    const engram = await open();
    await say(engram, 'user: Deploys happen on Fridays.', 'm1');
    await say(engram, 'assistant: Got it. Which day do deploys happen now?', 'm2');
    const [answer] = await say(engram, 'user: Thursday.', 'm3');
    expect(answer?.action).toBe('superseded');
    expect(await claims(engram)).toEqual({ active: ['Deploys happen on Thursday now.'], superseded: ['Deploys happen on Fridays.'] });
  });

  it('the question\'s "it" is what the user spoke of in the turn before, each turn its own write', async () => {
    const engram = await open();
    await say(engram, 'user: My piano lesson is on Monday.', 'm1');
    await say(engram, 'user: The piano lesson moved.', 'm2');
    await say(engram, 'assistant: Which day is it on now?', 'm3');
    const [answer] = await say(engram, 'user: Thursday.', 'm4');
    expect(answer?.action).toBe('superseded');
    const { active, superseded } = await claims(engram);
    expect(active).toContain('The piano lesson is on Thursday now.');
    expect(superseded).toEqual(['My piano lesson is on Monday.']);
  });

  it('stores no claim without a subject, and nothing for a need', async () => {
    const engram = await open();
    await say(engram, 'user: My haircut is booked for Monday.', 'm1');
    expect(await say(engram, 'user: I need to move the haircut.', 'm2')).toEqual([]);
    await say(engram, 'assistant: Sure - which day should I move the haircut to?', 'm3');
    expect(await say(engram, 'user: Thursday', 'm4')).toEqual([]);
    expect(await claims(engram)).toEqual({ active: ['My haircut is booked for Monday.'], superseded: [] });
  });
});
