/** How capture reads a turn: who speaks, what is left out, how a claim is worded. */
import { describe, expect, it } from 'vitest';
import { captureClaims, notAClaim, readTurn } from '../../../src/core/write/capture/index.js';

describe('reading a turn', () => {
  it('tells the speaker from a role prefix, a name or the tags, and a heading from a speaker', () => {
    expect(readTurn({ content: 'assistant: You could use pnpm.' }).role).toBe('assistant');
    expect(readTurn({ content: 'You could use pnpm.', tags: ['claude-code', 'assistant'] }).role).toBe('assistant');
    expect(readTurn({ content: 'user: We use pnpm.' })).toEqual({ role: 'user', text: 'We use pnpm.' });
    expect(readTurn({ content: 'Caroline: I live in Lisbon.' })).toEqual({ role: 'other', speaker: 'Caroline', text: 'I live in Lisbon.' });
    expect(readTurn({ content: 'Heads up: we replaced Resque with Sidekiq.' })).toEqual({
      role: 'user',
      text: 'Heads up: we replaced Resque with Sidekiq.',
    });
  });

  it('words claims as sentences, keeps who said them, and drops lead-ins and reasons', () => {
    expect(captureClaims({ content: 'Thanks! By the way, we deploy on Fridays, so plan for that.' })).toEqual(['We deploy on Fridays.']);
    expect(captureClaims({ content: 'Caroline: I live in Lisbon. Do you like it there?' })).toEqual(['Caroline: I live in Lisbon.']);
    expect(captureClaims({ content: 'user: dbt models live in the analytics repo.' })).toEqual(['dbt models live in the analytics repo.']);
    expect(captureClaims({ content: 'user: > we use yarn\nThat line in the wiki is outdated.' })).toEqual([]);
  });

  it('names why a clause is not a claim', () => {
    expect(notAClaim('Should we use pnpm?')).toBe('question');
    expect(notAClaim('If we moved to Aurora, pooling would change')).toBe('hypothetical');
    expect(notAClaim('maybe we should try Turborepo')).toBe('plan');
    expect(notAClaim('My teammate Oskar said the ORM is slow')).toBe('reported');
    expect(notAClaim('Carlos prefers Vim')).toBe('other-person');
    expect(notAClaim('npm i -D vitest')).toBe('code');
    expect(notAClaim('Please run the tests')).toBe('request');
    expect(notAClaim('we use pnpm')).toBeUndefined();
  });
});
