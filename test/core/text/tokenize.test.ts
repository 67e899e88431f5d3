import { describe, expect, it } from 'vitest';
import {
  STOP_WORDS,
  contentTermCount,
  contentTerms,
  countedContentTerms,
  isStopWord,
  normalizeTokens,
  tokenize,
} from '../../../src/core/text/index.js';

describe('tokenize', () => {
  it('lowercases and splits on non-word characters', () => {
    expect(tokenize('Hello, World! How are you?')).toEqual(['hello', 'world', 'how', 'are', 'you']);
  });

  it('keeps versions, units and dotted names whole', () => {
    expect(tokenize('Upgrade to v2.1 before buying the 80L tank from acme.com')).toEqual([
      'upgrade',
      'to',
      'v2.1',
      'before',
      'buying',
      'the',
      '80l',
      'tank',
      'from',
      'acme.com',
    ]);
  });

  it('joins digit groups, keeps decimals and drops trailing punctuation', () => {
    expect(tokenize('It cost 1,500 dollars, or 3.75 each.')).toEqual(['it', 'cost', '1500', 'dollars', 'or', '3.75', 'each']);
  });

  it("strips possessive 's and keeps contractions, curly apostrophes included", () => {
    expect(tokenize('Alice’s dog don’t bark')).toEqual(['alice', 'dog', "don't", 'bark']);
  });

  it('is unicode-aware', () => {
    expect(tokenize('Café naïve Straße Москва 東京 déjà-vu')).toEqual(['café', 'naïve', 'straße', 'москва', '東京', 'déjà', 'vu']);
  });

  it('splits snake_case and kebab-case but returns nothing for punctuation and emoji', () => {
    expect(tokenize('navigate_to_kitchen state-of-the-art')).toEqual(['navigate', 'to', 'kitchen', 'state', 'of', 'the', 'art']);
    expect(tokenize('... !!! 😊 —')).toEqual([]);
  });
});

describe('STOP_WORDS and contentTerms', () => {
  it("contains stopword's English list and chat fillers", () => {
    for (const word of ['the', 'and', 'is', 'ok', 'okay', 'thanks', 'lol', 'yeah', 'hmm', "don't", 'gonna']) {
      expect(isStopWord(word), word).toBe(true);
    }
    expect(STOP_WORDS.has('kitchen')).toBe(false);
    expect(STOP_WORDS.has('may')).toBe(false);
  });

  it('keeps only meaningful terms, in order', () => {
    expect(contentTerms('I think we should move the deploy to Friday')).toEqual(['think', 'move', 'deploy', 'friday']);
    expect(contentTerms('ok thanks lol')).toEqual([]);
  });
});

describe('normalizeTokens', () => {
  it('splits identifiers of every style and drops stop words', () => {
    expect(normalizeTokens('navigate_to_kitchen')).toEqual(['navigate', 'kitchen']);
    expect(normalizeTokens('graspObject')).toEqual(['grasp', 'object']);
    expect(normalizeTokens('open-the-door')).toEqual(['open', 'door']);
    expect(normalizeTokens('robot.arm.moveTo')).toEqual(['robot', 'arm', 'move']);
    expect(normalizeTokens('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    expect(normalizeTokens('PICK_UP_OBJECT')).toEqual(['pick', 'object']);
    expect(normalizeTokens('tools/search files')).toEqual(['tools', 'search', 'files']);
  });

  it('keeps digits, drops single letters and repeats', () => {
    expect(normalizeTokens('v2ApiClient')).toEqual(['v2', 'api', 'client']);
    expect(normalizeTokens('get_x_position_x')).toEqual(['position']);
    expect(normalizeTokens('')).toEqual([]);
  });
});

describe('contentTermCount', () => {
  it('is the number of content terms, whether the write path read the text for its terms before or not', () => {
    const texts = [
      'I think we should move the deploy to Friday',
      "Alice's v2.1 build took 1,500 ms",
      '我喜欢喝咖啡',
      '',
      'the a an of',
      // longer than the memo keeps
      'budget review notes '.repeat(400),
    ];
    for (const text of texts) expect(contentTermCount(text), text.slice(0, 40)).toBe(contentTerms(text).length);
    for (const text of texts) expect(countedContentTerms(text), text.slice(0, 40)).toEqual(contentTerms(text));
    // read once more after contentTerms remembered them, and for texts it never saw
    for (const text of texts)
      expect(contentTermCount(text), text.slice(0, 40)).toBe(tokenize(text).filter((t) => !STOP_WORDS.has(t)).length);
    expect(contentTermCount('a fresh text about kayaks and coffee')).toBe(4); // fresh, text, kayaks, coffee
  });
});
