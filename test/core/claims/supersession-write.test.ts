/**
 * The hostile-tester reports through the engine (a real SQLite file): a correction about one slot does not
 * supersede another slot that holds the same number, and a title inside a name is part of the claim.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type Engram } from '../../../src/index.js';
import { tempEngram } from '../../helpers/temp.js';

const DAY = 86_400_000;

describe('write path: supersession needs the same slot', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(Date.parse('2026-11-01T12:00:00Z'));
    ctx = await tempEngram({ clock });
    engram = ctx.engram;
  });
  afterEach(async () => ctx.cleanup());

  it('"Standup is at 9:30 now, not 10" leaves a date on the 10th current, and corrects standup at 10', async () => {
    let n = 0;
    for (const old of ['The dentist appointment is on dec 10.', 'The 2.4 release is scheduled for thursday dec 10.', 'Standup is at 10.']) {
      const scope = `t/not10/${(n += 1)}`;
      const first = await engram.remember({ scope, layer: 'semantic', content: old });
      clock.advance(DAY);
      const fix = await engram.remember({ scope, layer: 'semantic', content: 'Standup is at 9:30 now, not 10.' });
      const status = (await engram.get(first.id, { scopes: [scope] })).status;
      if (old.startsWith('Standup')) {
        expect(fix).toMatchObject({ action: 'superseded', superseded: [first.id] });
      } else {
        expect(fix.action, old).toBe('created');
        expect(status, old).toBe('active');
      }
    }
  });

  it('"My dentist is Dr. Kim now" supersedes "My dentist is Dr. Patel" instead of merging into it', async () => {
    const patel = await engram.remember({ scope: 't/dr', layer: 'semantic', content: 'My dentist is Dr. Patel.' });
    clock.advance(DAY);
    const kim = await engram.remember({ scope: 't/dr', layer: 'semantic', content: 'My dentist is Dr. Kim now.' });
    expect(kim).toMatchObject({ action: 'superseded', superseded: [patel.id] });
    expect((await engram.get(kim.id, { scopes: ['t/dr'] })).content).toBe('My dentist is Dr. Kim now.');
  });
});
