import { describe, expect, it } from 'vitest';
import { compareClaims } from '../../../src/core/write/claims/index.js';

describe('compareClaims: the issue examples', () => {
  it('"the deploy target moved from staging to production" supersedes "the deploy target is staging"', () => {
    const result = compareClaims('The deploy target moved from staging to production.', 'The deploy target is staging.');
    expect(result.relation).toBe('supersedes');
    expect(result.newSlots).toContainEqual({ subject: '', attribute: 'deploy_target', value: 'production', negated: false });
    expect(result.oldSlots).toContainEqual({ subject: '', attribute: 'deploy_target', value: 'staging', negated: false });
  });

  it('an ownership transfer supersedes the old owner', () => {
    const result = compareClaims(
      'Ownership of the billing service was transferred to the platform team.',
      'The billing service is owned by the payments team.',
    );
    expect(result.relation).toBe('supersedes');
    expect(result.confidence).toBeGreaterThanOrEqual(0.75);
  });

  it('"the payments team also owns the refunds service" does not supersede "billing is owned by payments"', () => {
    const result = compareClaims('The payments team also owns the refunds service.', 'Billing is owned by payments.');
    expect(result.relation).not.toBe('supersedes');
    expect(result.relation).not.toBe('agrees');
  });
});

describe('compareClaims: near-identical wording that is not a restatement', () => {
  it('a rule that drops the old one\'s "never" is not the same rule, though the words are shared', () => {
    const result = compareClaims('Book Alice on flights before 8am when they are cheaper', 'Never book Alice on flights before 8am');
    expect(result.relation).not.toBe('agrees');
    expect(compareClaims('Never book Alice on flights before 8am', 'Book Alice on flights before 8am').relation).not.toBe('agrees');
  });

  it('a wording that names something the old one does not adds a fact: compatible, not merged', () => {
    const result = compareClaims("Alice's dog Biscuit is a beagle", "Alice's dog is called Biscuit");
    expect(result).toMatchObject({ relation: 'compatible', reason: expect.stringContaining('adds "beagle"') });
    // the other way round the new wording says less: a restatement, merged with nothing lost
    expect(compareClaims("Alice's dog is called Biscuit", "Alice's dog Biscuit is a beagle").relation).toBe('agrees');
  });

  it('the same "moved from A to B" twice agrees (the retracted A is not a value the two differ on)', () => {
    expect(compareClaims('Alice moved from Lisbon to Porto', 'Alice moved from Lisbon to Porto')).toMatchObject({
      relation: 'agrees',
      confidence: 0.85,
    });
    expect(compareClaims('Alice moved from Lisbon to Porto.', 'Alice has moved from Lisbon to Porto').relation).toBe('agrees');
  });
});

describe('compareClaims: relations', () => {
  it('a restatement agrees', () => {
    expect(
      compareClaims('The payments team owns the billing service.', 'The billing service is owned by the payments team.').relation,
    ).toBe('agrees');
  });

  it('a negation of the same statement supersedes it', () => {
    expect(compareClaims('Dana no longer works on the mobile team.', 'Dana works on the mobile team.').relation).toBe('supersedes');
  });

  it('a negation of a different statement does not', () => {
    expect(compareClaims('The API no longer supports XML.', 'The API supports JSON.').relation).not.toBe('supersedes');
  });

  it('a different subject with the same attribute is compatible', () => {
    expect(compareClaims("Carol's favourite colour is red.", "Bob's favourite colour is blue.").relation).toBe('compatible');
  });

  it('additive markers keep both values', () => {
    for (const text of ['The user also likes Go.', 'The user likes Go too.', 'The user likes Go as well.']) {
      expect(compareClaims(text, 'The user likes Python.').relation, text).toBe('compatible');
    }
  });

  it('texts about unrelated things are unrelated', () => {
    expect(compareClaims('Grace reports to Heidi.', 'The billing service is owned by the payments team.').relation).toBe('unrelated');
  });

  it('always explains itself and returns both sides as slots', () => {
    const result = compareClaims('Alice moved to Lisbon.', 'Alice lives in Berlin.');
    expect(result.reason.length).toBeGreaterThan(0);
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
    expect(result.newSlots.length).toBeGreaterThan(0);
    expect(result.oldSlots.length).toBeGreaterThan(0);
  });
});

describe('compareClaims: similarity is one signal, never the decision', () => {
  it('a high similarity does not turn a compatible pair into a supersession', () => {
    const pairs: Array<[string, string]> = [
      ["Carol's favourite colour is red.", "Bob's favourite colour is blue."],
      ['Alice works in Munich.', 'Alice lives in Berlin.'],
      ['The user also likes Go.', 'The user likes Python.'],
    ];
    for (const [next, old] of pairs) {
      expect(compareClaims(next, old, { similarity: 0.99 }).relation, next).not.toBe('supersedes');
    }
  });

  it('a low similarity does not overturn a slot-level supersession', () => {
    expect(compareClaims('Alice moved to Lisbon.', 'Alice lives in Berlin.', { similarity: 0.05 }).relation).toBe('supersedes');
  });

  it('a low similarity vetoes a weak supersession', () => {
    const weak = compareClaims('The user now prefers aisle seats.', 'The user likes window seats.');
    expect(weak.relation).toBe('supersedes');
    expect(weak.confidence).toBeLessThan(0.7);
    expect(compareClaims('The user now prefers aisle seats.', 'The user likes window seats.', { similarity: 0.1 }).relation).toBe(
      'compatible',
    );
  });

  it('a high similarity lowers the bar for agreement on near-identical wording only', () => {
    const next = 'Payments are handled by Stripe for the shop.';
    const old = 'Stripe processes payments for our shop.';
    expect(compareClaims(next, old, { similarity: 0.95 }).relation).not.toBe('supersedes');
  });
});

describe('compareClaims: different facts about one subject coexist', () => {
  // Found in a stream of ordinary notes, where they superseded true facts: a number inside an activity read
  // as a measurement, a heading read as the subject, a dated stay read as where someone lives.
  const coexisting: Array<[string, string]> = [
    [
      'Amara has been doing calligraphy for 4 years and wants to start a club.',
      'Amara is fostering three kittens until they are old enough to be adopted.',
    ],
    [
      'Dmitri is doing a 42-day push-up challenge and posting updates in #random.',
      'Dmitri is organising a picnic for the support tooling team on 18 June.',
    ],
    [
      'The user is on call the week of 17 June and swapped the following week with Irene.',
      'The user has been vegetarian since 2019 but still eats eggs and cheese.',
    ],
    [
      'Room Everest is double-booked on Monday at 11:00; the support tooling team wins.',
      'Room Everest is double-booked on Wednesday at 11:30; the mobile team wins.',
    ],
    ['Gabriel reported that the file browser is slow on iPad Safari.', 'Petra reported that the file browser is slow on Firefox ESR.'],
    [
      'Budget request: the security team wants $57k for load-testing credits.',
      'Budget request: the developer experience team wants $50k for load-testing credits.',
    ],
    [
      'Expense report: Vera spent €500 on a standing mat in Amsterdam.',
      'Expense report: Sofia spent €442 on books for the library in Cape Town.',
    ],
    ['Action item for Lucia: draft the hiring plan by Thursday.', 'Action item for Lucia: book the offsite venue by Monday.'],
    [
      'The S3 lifecycle policy for old marketing assets moves them to Glacier after 90 days.',
      'Someone left a blue umbrella in meeting room Jupiter; it is at reception.',
    ],
    [
      'Wen moved from the localisation team to data platform.',
      'Wen needs someone to feed Tofu while they are in Amsterdam from 5 to 20 May.',
    ],
    ['Hiro moved from the growth team to security.', 'Hiro will be at a customer site all day Tuesday.'],
  ];
  it.each(coexisting)('"%s" does not supersede "%s"', (next, old) => {
    expect(compareClaims(next, old).relation).not.toBe('supersedes');
  });

  it.each([
    ['The budget is limited to $800.', 'The budget is limited to $500.'],
    ['The team is 12 people.', 'The team is 9 people.'],
    ['Our SLA is 99.95% uptime.', 'Our SLA is 99.9% uptime.'],
    ['The release is planned for 3 June.', 'The release is planned for 20 May.'],
  ])('an amount or date that changed still supersedes: "%s" after "%s"', (next, old) => {
    expect(compareClaims(next, old).relation).toBe('supersedes');
  });

  it('a labelled bare value still names the label as the attribute, and a measured copula is still single-valued', () => {
    expect(compareClaims('Deploy target: production', 'Deploy target: staging').relation).toBe('supersedes');
    expect(compareClaims('The staging cluster now has 5 nodes.', 'The staging cluster has 3 nodes.').relation).toBe('supersedes');
    expect(compareClaims('Dana is 35 years old.', 'Dana is 34 years old.').relation).toBe('supersedes');
  });
});

describe('compareClaims: the same sentence about something else is not a restatement', () => {
  const different: Array<[string, string]> = [
    ['Bilal asked to be added to the #frontend-guild channel.', 'Jonas asked to be added to the #frontend-guild channel.'],
    [
      'Yara brought their dachshund puppy to the office and nobody got any work done.',
      'Greta brought their whippet puppy to the office and nobody got any work done.',
    ],
    [
      'Looked up public holidays in Vancouver for the user, who is ordering from a shop there.',
      'Looked up public holidays in Brussels for the user, who is ordering from a shop there.',
    ],
    ['The identity team now holds its retro every third Thursday.', 'The integrations team now holds its retro every third Thursday.'],
    [
      'Vera is recovering from a dislocated finger and is working shorter days.',
      'Vera is recovering from a sprained ankle and is working shorter days.',
    ],
  ];
  it.each(different)('"%s" neither agrees with nor supersedes "%s"', (next, old) => {
    for (const options of [{}, { similarity: 0.95 }]) {
      const result = compareClaims(next, old, options);
      expect(result.relation).not.toBe('agrees');
      expect(result.relation).not.toBe('supersedes');
    }
  });

  it('spelling variants and slot-level restatements still agree', () => {
    expect(compareClaims('The user said vim is their favourite editor.', "user's favorite editor is vim").relation).toBe('agrees');
    expect(compareClaims('Bob likes blue best.', "Bob's favourite colour is blue.").relation).toBe('agrees');
  });
});

describe('compareClaims: names of one of several', () => {
  it('"has a sister named Mia" adds to "has a sister named Eva"; a definite "is called" replaces', () => {
    expect(compareClaims('Has a sister named Mia', 'Has a sister named Eva').relation).not.toBe('supersedes');
    expect(compareClaims('Alice has another dog named Max.', 'Alice has a dog named Rex.').relation).not.toBe('supersedes');
    expect(compareClaims('The cat is called Noodle.', 'The cat is called Tom.').relation).toBe('supersedes');
    // the same name again is the same fact
    expect(compareClaims('Has a sister named Eva', 'Has a sister named Eva').relation).toBe('agrees');
  });

  it('"a new manager called Bob" is stated as a change, and replaces "a manager called Tom"', () => {
    expect(compareClaims('I have a new manager called Bob.', 'I have a manager called Tom.').relation).toBe('supersedes');
  });
});
