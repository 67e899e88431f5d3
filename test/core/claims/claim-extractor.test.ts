import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClaimSlot } from '../../../src/core/memory.js';
import { claimClauses } from '../../../src/core/write/claims/claim-extractor.js';
import { analyzeClaim, extractClaim } from '../../../src/core/write/claims/index.js';

/** Expects `text` to yield a slot with these fields (negated defaults to false). */
function expectSlot(text: string, slot: Partial<ClaimSlot>): void {
  expect(extractClaim(text)).toContainEqual(expect.objectContaining({ negated: false, ...slot }));
}

describe('extractClaim: statement shapes', () => {
  it('"X is Y" names the value of X', () => {
    expectSlot('The primary database is PostgreSQL.', { subject: 'primary database', attribute: 'value', value: 'postgresql' });
    expectSlot('The deploy target is staging.', { subject: '', attribute: 'deploy_target', value: 'staging' });
  });

  it('"X\'s A is Y" and "the A of X is Y" name attribute A of X', () => {
    expectSlot("Bob's email address is bob@oldmail.com.", { subject: 'bob', attribute: 'email', value: 'bob@oldmail.com' });
    expectSlot('The logging level of the auth service is debug.', { subject: 'auth service', attribute: 'logging level', value: 'debug' });
    expectSlot('The deploy target for the docs site is staging.', { subject: 'doc site', attribute: 'deploy_target', value: 'staging' });
  });

  it('"X moved/switched/changed/migrated from A to B" asserts B and negates A', () => {
    const slots = extractClaim('The deploy target moved from staging to production.');
    expect(slots).toContainEqual({ subject: '', attribute: 'deploy_target', value: 'production', negated: false });
    expect(slots).toContainEqual({ subject: '', attribute: 'deploy_target', value: 'staging', negated: true });
    expectSlot('We migrated the message queue from RabbitMQ to Kafka.', { subject: 'message queue', value: 'kafka' });
    expectSlot('The user changed their preferred language from Python to Rust.', {
      subject: 'user',
      attribute: 'favourite language',
      value: 'rust',
    });
  });

  it('"X replaced A with B" / "A was replaced by B" assert B and negate A', () => {
    const slots = extractClaim('We replaced Moment.js with date-fns.');
    expect(slots).toContainEqual(expect.objectContaining({ value: 'date-fns', negated: false }));
    expect(slots).toContainEqual(expect.objectContaining({ value: 'moment.js', negated: true }));
    expect(extractClaim('Auth0 was replaced by Keycloak for authentication.')).toContainEqual({
      subject: 'authentication',
      attribute: 'tool',
      value: 'auth0',
      negated: true,
    });
  });

  it('"X no longer …" and "not … anymore" negate the statement', () => {
    expectSlot('Dana no longer works on the mobile team.', { subject: 'dana', attribute: 'work on', value: 'mobile team', negated: true });
    expectSlot('The user is not vegetarian anymore.', { subject: 'user', attribute: 'property', value: 'vegetarian', negated: true });
    expect(analyzeClaim('Dana no longer works on the mobile team.').markers.has('no-longer')).toBe(true);
  });

  it('"correction: …" and "actually, …" are markers, not content', () => {
    const correction = analyzeClaim('Correction: the staging cluster is in eu-west-1.');
    expect(correction.markers.has('correction')).toBe(true);
    expect(correction.slots[0]).toMatchObject({ subject: 'staging cluster', attribute: 'location', value: 'eu-west-1' });
    const actually = analyzeClaim('Actually, Ivan prefers spaces.');
    expect(actually.markers.has('actually')).toBe(true);
    expect(actually.slots[0]).toMatchObject({ subject: 'ivan', attribute: 'prefers', value: 'spaces' });
  });

  it('", not X" retracts X', () => {
    expect(extractClaim("Correction: Frank's birthday is March 13, not March 3.")).toContainEqual({
      subject: 'frank birthday',
      attribute: 'when',
      value: 'march 3',
      negated: true,
    });
  });

  it('ownership: "owned by", "T owns X", "ownership … transferred to", "responsible for", "maintained by"', () => {
    const owner = { subject: 'billing service', attribute: 'owner' };
    expectSlot('The billing service is owned by the payments team.', { ...owner, value: 'payments team' });
    expectSlot('The payments team owns the billing service.', { ...owner, value: 'payments team' });
    expectSlot('Ownership of the billing service was transferred to the platform team.', { ...owner, value: 'platform team' });
    expectSlot('The platform team is responsible for the billing service.', { ...owner, value: 'platform team' });
    expectSlot('The billing service is maintained by Judy.', { ...owner, value: 'judy' });
  });

  it('location: "lives in", "is based in", "moved to", "is in"', () => {
    expectSlot('Alice lives in Berlin.', { subject: 'alice', attribute: 'location', value: 'berlin' });
    expectSlot('Alice is based in Berlin.', { subject: 'alice', attribute: 'location', value: 'berlin' });
    expectSlot('Alice moved to Lisbon.', { subject: 'alice', attribute: 'location', value: 'lisbon' });
    expectSlot('The staging cluster is in us-east-1.', { subject: 'staging cluster', attribute: 'location', value: 'us-east-1' });
    expectSlot("The company's headquarters are in Austin.", { subject: 'company', attribute: 'location', value: 'austin' });
  });

  it('preference: "prefers", "likes", "hates", "favourite Z is Y"', () => {
    expectSlot('The user prefers dark mode.', { subject: 'user', attribute: 'prefers', value: 'dark mode' });
    expectSlot('Ivan prefers spaces over tabs.', { subject: 'ivan', attribute: 'prefers', value: 'tabs', negated: true });
    expectSlot('The user likes Python.', { subject: 'user', attribute: 'likes', value: 'python' });
    expectSlot('The user hates cilantro.', { subject: 'user', attribute: 'likes', value: 'cilantro', negated: true });
    expectSlot("Bob's favourite colour is blue.", { subject: 'bob', attribute: 'favourite colour', value: 'blue' });
    expectSlot("Bob's favorite color is blue.", { subject: 'bob', attribute: 'favourite colour', value: 'blue' });
  });

  it('decision: "we decided to use Y for X", "we will use Y for X", "Y will be used for X"', () => {
    const slot = { subject: 'session store', attribute: 'tool', value: 'redis' };
    expectSlot('We decided to use Redis for the session store.', slot);
    expectSlot('We will use Redis for the session store.', slot);
    expectSlot('Redis will be used for the session store.', slot);
  });

  it('schedule: "is on Tuesday", "was moved to Friday", dates and times', () => {
    expectSlot('The weekly sync is on Tuesday.', { subject: 'weekly sync', attribute: 'when', value: 'tuesday' });
    expectSlot('The weekly sync was moved to Friday.', { subject: 'weekly sync', attribute: 'when', value: 'friday' });
    expectSlot('The release is scheduled for June 12.', { subject: 'release', attribute: 'when', value: 'june 12' });
    expectSlot('The release date is June 12.', { subject: 'release', attribute: 'when', value: 'june 12' });
    expectSlot('The sprint demo happens Fridays at 11am.', { subject: 'sprint demo', attribute: 'when' });
  });

  it('names: "is called", "\'s name is", "was renamed to"', () => {
    expectSlot('The internal wiki is called Atlas.', { subject: 'internal wiki', attribute: 'name', value: 'atlas' });
    expectSlot("The internal wiki's name is Atlas.", { subject: 'internal wiki', attribute: 'name', value: 'atlas' });
    expectSlot('The internal wiki was renamed to Compass.', { subject: 'internal wiki', attribute: 'name', value: 'compass' });
  });

  it('counts and numbers: "budget is 80L", "has 6 engineers", "there are 9 engineers on the team", rates', () => {
    expectSlot('The budget is 80L.', { subject: 'budget', attribute: 'value', value: '80l' });
    expectSlot('The team has 6 engineers.', { subject: 'team', attribute: 'count engineer', value: '6' });
    expectSlot('There are 9 engineers on the team.', { subject: 'team', attribute: 'count engineer', value: '9' });
    expectSlot('The budget is 80L per month.', { subject: 'budget monthly', value: '80l' });
    expectSlot('The build takes 20 minutes.', { subject: 'build', attribute: 'duration', value: '20 minutes' });
  });

  it('additive markers are recorded and removed from the value', () => {
    const analysis = analyzeClaim('The payments team also owns the refunds service.');
    expect(analysis.markers.has('additive')).toBe(true);
    expect(analysis.slots[0]).toMatchObject({ subject: 'refund service', attribute: 'owner', value: 'payments team' });
  });

  it('reporting frames are unwrapped: "the user said they moved to Lisbon"', () => {
    expectSlot('The user said they moved to Lisbon.', { subject: 'user', attribute: 'location', value: 'lisbon' });
  });
});

describe('extractClaim: normalisation', () => {
  it('strips determiners and possessives and lemmatises lightly', () => {
    const a = extractClaim('The billing service is owned by the payments team.')[0];
    const b = extractClaim('Billing services are owned by payments teams.')[0];
    expect(a?.subject).toBe('billing service');
    expect(b?.subject).toBe(a?.subject);
  });

  it('maps attribute wordings to one family', () => {
    for (const text of [
      'The VPN is owned by the infra team.',
      'The VPN is maintained by the infra team.',
      'The infra team is responsible for the VPN.',
      'The infra team owns the VPN.',
    ]) {
      expect(extractClaim(text)[0]?.attribute, text).toBe('owner');
    }
    expect(extractClaim('We deploy to production.')[0]?.attribute).toBe('deploy_target');
    expect(extractClaim('The deployment target is production.')[0]?.attribute).toBe('deploy_target');
  });

  it('stores negative adjectives as negated positives', () => {
    expectSlot('The legacy reports endpoint has been disabled.', { attribute: 'property', value: 'enabled', negated: true });
  });

  it('returns no slots for text without a statement, and never throws', () => {
    expect(extractClaim('')).toEqual([]);
    expect(extractClaim('???')).toEqual([]);
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const slots = extractClaim(text);
        return slots.every((s) => typeof s.subject === 'string' && typeof s.value === 'string');
      }),
      { numRuns: 200 },
    );
  });
});

describe('extractClaim: predicates joined by "and" or a comma', () => {
  it('reads each joined predicate as a claim of the shared subject', () => {
    for (const text of ['I live in Lisbon and work as a nurse.', 'I live in Lisbon and I work as a nurse.']) {
      expect(extractClaim(text)).toEqual([
        expect.objectContaining({ subject: 'user', attribute: 'location', value: 'lisbon' }),
        expect.objectContaining({ subject: 'user', attribute: 'role', value: 'nurse' }),
      ]);
    }
    const three = extractClaim('I live in Lisbon, work as a nurse and drive a Tesla.');
    expect(three.map((slot) => slot.value)).toEqual(['lisbon', 'nurse', 'tesla']);
    expectSlot('I moved to Porto last year and started a new job.', { subject: 'user', attribute: 'location', value: 'porto' });
  });

  it('keeps a value that only lists things whole', () => {
    // a gerund list, a proper name with "and", nouns, and a word that tags as a verb in another tense
    expectSlot('I like hiking, swimming and running.', { value: 'hiking, swimming and running' });
    expectSlot('I work at Procter and Gamble.', { value: 'procter and gamble' });
    for (const text of ['I have two cats and a dog.', 'I bought eggs and milk from the store.', 'I like hiking, swimming and running.'])
      expect(claimClauses(text)).toHaveLength(1);
  });
});

describe('extractClaim: a role, a move to a tool, a job', () => {
  it('"The <role> is <Name>" keys the slot on the role, as "<Name> is the <role>" does', () => {
    for (const text of ['The team lead is Ana.', 'Ana is the team lead.', 'The team lead is now Ana.', 'Ana is now our team lead.'])
      expect(extractClaim(text)).toEqual([{ subject: 'team lead', attribute: 'value', value: 'ana', negated: false }]);
    expectSlot('The board chair is Ingrid.', { subject: 'board chair', attribute: 'value', value: 'ingrid' });
    // "heads"/"leads" before a copula ends a noun phrase; before an object it is still the verb
    expect(extractClaim('The department heads are Ana and Bo.')[0]?.attribute).not.toBe('lead');
    expectSlot('Marta heads the design team.', { subject: 'design team', attribute: 'lead', value: 'marta' });
  });

  it('a thing moved to a known tool is now that tool; a person or a thing moved to a place is somewhere', () => {
    expectSlot('We moved CI to GitHub Actions.', { subject: 'ci', attribute: 'value', value: 'github actions' });
    expectSlot('The cache was shifted to Redis.', { subject: 'cache', attribute: 'value', value: 'redis' });
    expectSlot('I moved to Berlin.', { subject: 'user', attribute: 'location', value: 'berlin' });
    expectSlot('We moved the office to Lisbon.', { subject: 'office', attribute: 'location', value: 'lisbon' });
    expectSlot('Priya moved to GitHub.', { subject: 'priya', attribute: 'location', value: 'github' });
    expectSlot('We moved the office to the Azure building.', { subject: 'office', attribute: 'location', value: 'azure building' });
  });

  it('"works as" names the job, whatever the tense', () => {
    expectSlot('I work as a nurse.', { subject: 'user', attribute: 'role', value: 'nurse' });
    expectSlot("I'm working as a nurse.", { subject: 'user', attribute: 'role', value: 'nurse' });
    expectSlot('Dana works as a barista.', { subject: 'dana', attribute: 'role', value: 'barista' });
  });
});

describe('claimClauses and extractClaim: abbreviations and clauses with their own subject', () => {
  it('keeps titles, "St." and "a.m." inside their clause', () => {
    expect(claimClauses('My dentist is Dr. Patel.')).toEqual(['My dentist is Dr. Patel']);
    expect(claimClauses("Mrs. Lee lives on St. Mark's Road. She is nice.")).toEqual([
      "Mrs. Lee lives on St. Mark's Road",
      'Mrs. Lee is nice',
    ]);
    expect(claimClauses("Mom has surgery on dec 16 at St. Mary's. I'll stay with her the first week after")).toEqual([
      "Mom has surgery on dec 16 at St. Mary's",
      'I will stay with her the first week after',
    ]);
    expect(claimClauses('We meet at 9 a.m. on Mondays. Bring coffee.')).toEqual(['We meet at 9 a.m. on Mondays', 'Bring coffee']);
    expect(claimClauses('We use vim. the editor is fine.')).toEqual(['We use vim', 'the editor is fine']);
  });

  it('splits "…, <someone> <verb> …" into two claims', () => {
    expect(extractClaim('Dana now owns billing, Marcus moved to the platform team.')).toEqual([
      expect.objectContaining({ subject: 'billing', attribute: 'owner', value: 'dana' }),
      expect.objectContaining({ subject: 'marcus', attribute: 'member_of', value: 'platform team' }),
    ]);
    expect(extractClaim('My car is a 2015 Honda Civic, the check engine light is on again.')[0]).toMatchObject({
      subject: 'car',
      value: '2015 honda civic',
    });
    // a list of names is one value
    expect(extractClaim('We use Postgres, Redis and Kafka.')).toHaveLength(1);
  });

  it('the time of a change is not part of the new value', () => {
    expectSlot('We moved CI to GitHub Actions last week.', { subject: 'ci', attribute: 'value', value: 'github actions' });
    expectSlot('The database was upgraded to PostgreSQL 15 last month.', { subject: 'database', value: 'postgresql 15' });
    expectSlot('The offsite has been rescheduled to 21 May 2026.', { subject: 'offsite', attribute: 'when', value: '21 may 2026' });
  });
});

describe('extractClaim: a change said without its "I"', () => {
  it('reads "Traded in the civic" and "Switched to Firefox" as the speaker\'s', () => {
    expectSlot('Traded in the civic.', { subject: 'user', value: 'civic' });
    expectSlot('Switched to Firefox last week.', { subject: 'user', value: 'firefox' });
  });
});
