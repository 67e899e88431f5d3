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

describe('compareClaims: a thing someone has is one thing', () => {
  const changes: Array<[string, string]> = [
    ['My car is now a red Tesla Model 3', 'My car is a blue Toyota Corolla'],
    ['My laptop is now a MacBook Air', 'My laptop is a ThinkPad X1'],
    ['Our office is now a rented floor in Baixa', 'Our office is a coworking space in Alfama'],
    ['My laptop is now MacBook Air', 'My laptop is a ThinkPad X1'],
    ['My phone is currently a Pixel 8.', 'My phone is an iPhone 12.'],
  ];
  it.each(changes)('"%s" replaces "%s"', (next, old) => {
    expect(compareClaims(next, old).relation).toBe('supersedes');
  });

  const additions: Array<[string, string]> = [
    ['Alice is now a mother', 'Alice is a doctor'],
    ['Alice is a mother', 'Alice is a doctor'],
    ['My sister is now a mother', 'My sister is a nurse'],
    ['My roommate is now a father', 'My roommate is a teacher'],
    ['My dog is now a therapy dog', 'My dog is a beagle'],
    ['My car is a hybrid', 'My car is a Toyota'],
    ['My car is now blue', 'My car is a Toyota'],
    ['My laptop is now MacBook Air', 'My laptop runs on Linux'],
    ['Our team is now a remote-first team', 'Our team is a small team'],
  ];
  it.each(additions)('"%s" does not supersede "%s"', (next, old) => {
    expect(compareClaims(next, old).relation).not.toBe('supersedes');
  });
});

describe('compareClaims: history, a closed period in the past', () => {
  const history: Array<[string, string]> = [
    ['I lived in Lisbon from 2019 to 2022', 'I live in Porto'],
    ['I worked at Microsoft from 2010 to 2015', 'I work at Google'],
    ['I lived in Lisbon until 2022.', 'I live in Porto.'],
    ['I worked at Microsoft between 2010 and 2015.', 'I work at Google.'],
    ['I lived in Berlin for three years in the 2010s.', 'I live in Porto.'],
    ['From 2019 to 2022 I lived in Lisbon.', 'I live in Porto.'],
    ['The office was in Berlin from 2015 to 2020.', 'The office is in Munich.'],
    ['I moved to Lisbon in 2019 and lived there until 2022.', 'I live in Porto.'],
  ];
  it.each(history)('"%s" is history: it does not supersede "%s"', (past, current) => {
    const result = compareClaims(past, current);
    expect(result.relation).toBe('compatible');
    expect(result.reason).toContain('another time');
    // nor does the present claim replace or restate the history
    expect(compareClaims(current, past).relation).toBe('compatible');
  });

  it('the value is the place or employer alone, not the period', () => {
    expect(compareClaims('I lived in Lisbon from 2019 to 2022', 'I live in Porto').newSlots).toEqual([
      { subject: 'user', attribute: 'location', value: 'lisbon', negated: false },
    ]);
    expect(compareClaims('I worked at Microsoft from 2010 to 2015', 'I work at Google').newSlots).toEqual([
      { subject: 'user', attribute: 'workplace', value: 'microsoft', negated: false },
    ]);
  });

  it('the same history agrees; another period of it is another fact; the present with a period is no history', () => {
    expect(compareClaims('I lived in Lisbon from 2019 to 2022.', 'I lived in Lisbon from 2019 to 2022').relation).toBe('agrees');
    expect(compareClaims('I lived in Lisbon from 2015 to 2018.', 'I lived in Lisbon from 2019 to 2022.').relation).toBe('compatible');
    // "have lived … for three years" still holds; "until June" after a present tense is a plan, not history
    expect(compareClaims('I have lived in Lisbon for three years.', 'I live in Porto.').reason).not.toContain('another time');
    expect(compareClaims("I'm staying in Lisbon until June.", 'I live in Porto.').reason).not.toContain('another time');
  });

  it('a past tense without a closed period, and a change with a date, still supersede', () => {
    expect(compareClaims('I lived in Lisbon.', 'I live in Porto.').relation).toBe('supersedes');
    expect(compareClaims('Actually I moved to Porto.', 'I live in Lisbon.').relation).toBe('supersedes');
    expect(compareClaims('I moved to Porto in 2023. I lived in Lisbon from 2019 to 2022.', 'I live in Berlin.').relation).toBe(
      'supersedes',
    );
    expect(compareClaims('The launch was in March.', 'The launch is in April.').relation).toBe('supersedes');
    // a flat denial covers every time
    expect(compareClaims('Actually, I never lived in Lisbon.', 'I lived in Lisbon from 2019 to 2022.').relation).toBe('supersedes');
  });
});

describe('compareClaims: going back to a place', () => {
  const returns = [
    'I moved back to Lisbon.',
    'I returned to Lisbon.',
    "I'm back in Lisbon now.",
    'I relocated back to Lisbon.',
    'I went back to Lisbon.',
    'I came back home to Lisbon.',
  ];
  it.each(returns)('"%s" is the user\'s location, as a change, and supersedes "I moved to Porto"', (text) => {
    const result = compareClaims(text, 'I moved to Porto.');
    expect(result.newSlots).toContainEqual({ subject: 'user', attribute: 'location', value: 'lisbon', negated: false });
    expect(result.relation).toBe('supersedes');
    expect(result.reason).toContain('stated as a change');
  });

  it('back to a time, a state or an activity is no place', () => {
    expect(compareClaims('The meeting was moved back to Friday.', 'The meeting is on Monday.').newSlots).toContainEqual(
      expect.objectContaining({ attribute: 'when' }),
    );
    for (const text of ['I went back to work.', 'Things went back to normal.', 'I went back to sleeping early.'])
      expect(compareClaims(text, 'I live in Porto.').relation).not.toBe('supersedes');
  });
});

describe('compareClaims: negated idioms negate nothing', () => {
  it('"Can\'t wait too" does not retract "Can\'t wait to see them rock the festival"', () => {
    for (const old of ["Gina: Can't wait to see them rock the festival.", "Gina: Can't wait to have fun at your dance studio."]) {
      expect(compareClaims("Gina: Can't wait too.", old).relation).not.toBe('supersedes');
    }
    expect(compareClaims("Gina: Can't wait to see them rock the festival.", "Jon: Can't wait to see you.").relation).not.toBe('supersedes');
  });

  it.each([
    "Can't wait to see you.",
    "I can't believe it's already March.",
    "I couldn't be happier with the new job.",
    "Don't forget to bring the tickets.",
    "I can't stop thinking about the trip.",
    'Not bad at all.',
  ])('"%s" carries no negated slot', (text) => {
    expect(compareClaims(text, 'Unrelated.').newSlots.filter((s) => s.negated)).toEqual([]);
  });

  it('a plain negation still supersedes', () => {
    expect(compareClaims("I can't swim.", 'I can swim.').relation).toBe('supersedes');
    expect(compareClaims("The user doesn't eat meat.", 'The user eats meat.').relation).toBe('supersedes');
  });

  it('saying again what the old claim says is not so retracts nothing', () => {
    expect(compareClaims("Gina: won't stay.", "Gina: won't stay for the concert.").relation).not.toBe('supersedes');
    expect(compareClaims("Tom: won't eat sushi.", "Tom: I won't eat sushi again.").relation).not.toBe('supersedes');
  });
});

describe('compareClaims: accents are folded when subjects and values are compared', () => {
  it('"Jose moved to Seville" supersedes "José lives in Madrid"', () => {
    expect(compareClaims('Jose moved to Seville.', 'José lives in Madrid.').relation).toBe('supersedes');
    expect(compareClaims('Zoe now works at Klarna.', 'Zoë works at Spotify.').relation).toBe('supersedes');
  });

  it('"The project lead is María" restates "… Maria", and the value keeps its accent', () => {
    const result = compareClaims('The project lead is María.', 'The project lead is Maria.');
    expect(result.relation).toBe('agrees');
    expect(result.newSlots[0]?.value).toBe('maría');
    expect(compareClaims('Søren leads the data team.', 'Soren leads the data team.').relation).toBe('agrees');
  });
});

describe('compareClaims: words of when are no dimension', () => {
  it('"We switched to bun last week" does not replace "We hired two designers last week"', () => {
    expect(compareClaims('We switched to bun last week.', 'We hired two designers last week.').relation).not.toBe('supersedes');
    expect(compareClaims('We moved to Kubernetes on Monday.', 'We ship the release on Monday.').relation).not.toBe('supersedes');
    // what it replaces, it still replaces with a date on it
    expect(compareClaims('We switched to bun last week.', 'We use pnpm for package management.').relation).toBe('supersedes');
    expect(compareClaims('The database was upgraded to PostgreSQL 15 last month.', 'The database is PostgreSQL 13.').relation).toBe(
      'supersedes',
    );
  });
});

describe('compareClaims: a possessed thing "now" something names a kind or a name to replace what it was', () => {
  it('a state or a role of the thing is no new kind of it', () => {
    expect(compareClaims('My laptop is now my main machine.', 'My laptop is a ThinkPad X1.').relation).not.toBe('supersedes');
    expect(compareClaims('My garden is now full of tomatoes.', 'My garden is a small balcony garden.').relation).not.toBe('supersedes');
    expect(compareClaims('My house is now worth more.', 'My house is a small bungalow.').relation).not.toBe('supersedes');
    expect(compareClaims('My car is now a red Tesla.', 'My car is a blue Toyota Corolla.').relation).toBe('supersedes');
    expect(compareClaims('My laptop is now MacBook Air.', 'My laptop is a ThinkPad X1.').relation).toBe('supersedes');
  });
});

describe('compareClaims: a switch named for a purpose replaces the tool of that purpose only', () => {
  it('"We switched to MySQL for the main database" leaves SQLite for the mobile app', () => {
    expect(compareClaims('We switched to MySQL for the main database.', 'We use SQLite for the mobile app.').relation).not.toBe(
      'supersedes',
    );
    expect(compareClaims('We switched to MySQL for the main database.', 'We use Postgres for the main database.').relation).toBe(
      'supersedes',
    );
    expect(compareClaims('We switched to bun.', 'We use pnpm for package management.').relation).toBe('supersedes');
  });
});

describe('compareClaims: one slot in its other forms', () => {
  it('"the user\'s X is", "X:" and "the X is" name one slot; a measure tail ("range") is the same thing', () => {
    expect(compareClaims('Budget range: 1 crore', "The user's budget range is 80 lakh.").relation).toBe('supersedes');
    expect(compareClaims('The budget range is 1 crore.', 'Budget: 80L').relation).toBe('supersedes');
    expect(compareClaims('Budget range: 80 lakh', "The user's budget range is 80 lakh.").relation).toBe('agrees');
  });

  it("another thing with the same word, or someone else's label, is another slot", () => {
    expect(compareClaims('Budget deadline: Friday', 'Budget: 80L').relation).not.toBe('supersedes');
    expect(compareClaims('Budget range: 1 crore', "Alice's budget range is 80 lakh.").relation).not.toBe('supersedes');
  });
});

describe('compareClaims: a role filled by a name, written either way round', () => {
  it('a new holder of the role supersedes the old one; the same holder agrees; another role coexists', () => {
    expect(compareClaims('The team lead is now Carol.', 'The team lead is Ana.').relation).toBe('supersedes');
    expect(compareClaims('Carol is now the team lead.', 'The team lead is Ana.').relation).toBe('supersedes');
    expect(compareClaims('The board chair is now Olu.', 'Ingrid is the board chair.').relation).toBe('supersedes');
    expect(compareClaims('Ana is the team lead.', 'The team lead is Ana.').relation).toBe('agrees');
    expect(compareClaims('The design lead is Carol.', 'The team lead is Ana.').relation).not.toBe('supersedes');
    expect(compareClaims('The team lead is in Berlin this week.', 'The team lead is Ana.').relation).not.toBe('supersedes');
  });
});

describe('compareClaims: a thing moved to a tool replaces the tool it was', () => {
  it('"We moved CI to GitHub Actions" supersedes "Our CI is Jenkins"; moves of other things, and to places, do not', () => {
    expect(compareClaims('We moved CI to GitHub Actions.', 'Our CI is Jenkins.').relation).toBe('supersedes');
    expect(compareClaims('The message queue was moved to Kafka.', 'Our message queue is RabbitMQ.').relation).toBe('supersedes');
    expect(compareClaims('We moved the CI cache to S3.', 'Our CI is Jenkins.').relation).not.toBe('supersedes');
    expect(compareClaims('We moved the office to Lisbon.', 'Our CI is Jenkins.').relation).not.toBe('supersedes');
    expect(compareClaims('We moved CI to GitHub Actions.', 'I live in Lisbon.').relation).not.toBe('supersedes');
    expect(compareClaims('We moved the office to Lisbon.', 'The office is in Porto.').relation).toBe('supersedes');
  });
});

describe('compareClaims: a job stated with "works as" is one at a time', () => {
  it('"I now work as a teacher" supersedes "I work as a nurse"; "also" adds a job; someone else\'s job is theirs', () => {
    const result = compareClaims('I now work as a teacher.', 'I work as a nurse.');
    expect(result.relation).toBe('supersedes');
    expect(result.newSlots).toEqual([{ subject: 'user', attribute: 'role', value: 'teacher', negated: false }]);
    expect(compareClaims('Dana works as a pastry chef now.', 'Dana works as a barista.').relation).toBe('supersedes');
    expect(compareClaims('I also work as a part-time tutor.', 'I work as a nurse.').relation).not.toBe('supersedes');
    expect(compareClaims('My sister works as a teacher.', 'I work as a nurse.').relation).not.toBe('supersedes');
    expect(compareClaims("I'm working as a nurse.", 'I work as a nurse.').relation).toBe('agrees');
  });
});

describe('compareClaims: a correction must be about the same thing (hostile-tester reports)', () => {
  it('"…, not 10" about standup leaves dates and other events that hold a 10 alone', () => {
    const fix = 'Standup is at 9:30 now, not 10.';
    for (const old of [
      'The dentist appointment is on dec 10.',
      'The 2.4 release is scheduled for thursday dec 10.',
      'The retro is at 10.',
      'The team has 10 engineers.',
      'Leo turns 10 in March.',
    ])
      expect(compareClaims(fix, old).relation, old).not.toBe('supersedes');
    expect(compareClaims('Standup is on Monday now, not Friday.', 'The retro is on Friday.').relation).not.toBe('supersedes');
    // the same slot is still corrected
    expect(compareClaims(fix, 'Standup is at 10.').relation).toBe('supersedes');
  });

  it('a title inside a name does not cut the value: "Dr. Kim" replaces "Dr. Patel", and restates only "Dr. Patel"', () => {
    expect(compareClaims('My dentist is Dr. Kim now.', 'My dentist is Dr. Patel.')).toMatchObject({
      relation: 'supersedes',
      newSlots: [expect.objectContaining({ subject: 'dentist', value: 'dr. kim' })],
    });
    expect(compareClaims('Our landlord is Mrs. Lee now.', 'Our landlord is Mr. Jones.').relation).toBe('supersedes');
    expect(compareClaims('Dr. Patel is my dentist.', 'My dentist is Dr. Patel.').relation).toBe('agrees');
    expect(compareClaims('My doctor is Dr. Kim.', 'My dentist is Dr. Patel.').relation).not.toBe('supersedes');
  });

  it('a correction in one of several clauses supersedes; a clause about another thing does not', () => {
    const owner = 'Marcus owns the billing service.';
    expect(compareClaims('Dana now owns billing, Marcus moved to the platform team.', owner).relation).toBe('supersedes');
    expect(compareClaims('Dana owns the billing repo, Marcus moved to the platform team.', owner).relation).not.toBe('supersedes');
    expect(compareClaims('Dana now owns payments, Marcus is on holiday.', owner).relation).not.toBe('supersedes');
    const ci = 'Our CI is Jenkins, the job is called ledger-main.';
    expect(compareClaims('We moved CI to GitHub Actions last week, the old jenkins box is getting decommissioned.', ci).relation).toBe(
      'supersedes',
    );
    expect(compareClaims('We moved the office to Lisbon last week, the old desk is getting sold.', ci).relation).not.toBe('supersedes');
  });

  it('a clause said without its "I" ("Traded in the civic!") is the speaker\'s departure', () => {
    const car = 'My car is a 2015 Honda Civic, the check engine light is on again.';
    expect(compareClaims('Traded in the civic! we now drive a 2024 Toyota RAV4 hybrid.', car).relation).toBe('supersedes');
    expect(compareClaims('Traded in my old bike! the car is still fine.', 'My car is a 2015 Honda Civic.').relation).not.toBe('supersedes');
    expect(compareClaims('Sold the old lawnmower last week.', 'My car is a 2015 Honda Civic.').relation).not.toBe('supersedes');
  });

  it('"took over as R" fills the role R; "took over X from Y" retracts Y', () => {
    for (const old of ['The team lead is Ana.', 'Our team lead is Ana.', 'Ana is our team lead.'])
      expect(compareClaims('Carol took over as team lead last week.', old).relation, old).toBe('supersedes');
    expect(compareClaims('Carol took over as design lead.', 'The team lead is Ana.').relation).not.toBe('supersedes');
    expect(compareClaims('Dana took over billing from Sam.', 'Sam runs billing.').relation).toBe('supersedes');
    expect(compareClaims('Dana took over payroll from Sam.', 'Sam runs billing.').relation).not.toBe('supersedes');
  });

  it('"turns out … not … after all" reverses the old claim, and only that one', () => {
    const allergy = "I'm allergic to peanuts.";
    expect(compareClaims("Turns out I'm not allergic to peanuts after all.", allergy).relation).toBe('supersedes');
    expect(compareClaims("Turns out I'm not allergic to shellfish after all.", allergy).relation).not.toBe('supersedes');
  });

  it('change phrasings: a browser switch, a move to an hour, a push to a day, an age, a head count', () => {
    expect(compareClaims('I switched to Firefox.', 'I use Chrome as my browser.').relation).toBe('supersedes');
    expect(compareClaims('I switched to Neovim.', 'I use Chrome as my browser.').relation).not.toBe('supersedes');
    expect(compareClaims('My sister switched to Firefox.', 'I use Chrome as my browser.').relation).not.toBe('supersedes');
    // the speaker's switch replaces a tool of its kind, not anything the speaker uses
    expect(compareClaims('I switched to oat milk.', 'I use Chrome.').relation).not.toBe('supersedes');
    expect(compareClaims('I switched to Firefox.', 'I use Chrome.').relation).toBe('supersedes');
    expect(compareClaims('The user switched to Neovim.', "The user's preferred editor is VS Code.").relation).toBe('supersedes');
    expect(compareClaims('The user switched to Neovim.', "My sister's editor is VS Code.").relation).not.toBe('supersedes');
    expect(compareClaims('We switched to bun.', 'My friend uses pnpm.').relation).not.toBe('supersedes');
    for (const fix of ['We moved standup to 10.', 'Standup moved to 10.'])
      expect(compareClaims(fix, 'Standup is at 9:30.').relation, fix).toBe('supersedes');
    expect(compareClaims('We moved the retro to 10.', 'Standup is at 9:30.').relation).not.toBe('supersedes');
    expect(compareClaims('Ravi moved to 10 Downing Street.', 'Standup is at 9:30.').relation).not.toBe('supersedes');
    expect(compareClaims('The deploy freeze was pushed to Monday.', 'The deploy freeze starts on Friday.').relation).toBe('supersedes');
    expect(compareClaims('The launch party was pushed to Monday.', 'The deploy freeze starts on Friday.').relation).not.toBe('supersedes');
    for (const fix of ['I just turned 35.', "I'm 35 now."])
      expect(compareClaims(fix, "I'm 34 years old.").relation, fix).toBe('supersedes');
    expect(compareClaims('My son just turned 5.', "I'm 34 years old.").relation).not.toBe('supersedes');
    expect(compareClaims("I'm 34.", "I'm 34 years old.").relation).toBe('agrees');
    expect(compareClaims("We're 15 engineers now.", 'We have 12 engineers.').relation).toBe('supersedes');
    expect(compareClaims("We're 3 designers now.", 'We have 12 engineers.').relation).not.toBe('supersedes');
  });
});

describe('a rate stated with a measure qualifies its subject', () => {
  it('"Rent went up to $2,100" supersedes "Our rent is $1,800 a month"; a rent per year is another slot', () => {
    expect(compareClaims('Rent went up to $2,100.', 'Our rent is $1,800 a month.').relation).toBe('supersedes');
    expect(compareClaims('Our rent is $21,000 a year.', 'Our rent is $1,800 a month.').relation).not.toBe('supersedes');
    expect(compareClaims('The parking fee went up to $90.', 'Our rent is $1,800 a month.').relation).not.toBe('supersedes');
  });
});
