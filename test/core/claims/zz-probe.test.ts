import { test } from 'vitest';
import { compareClaims, analyseClaim } from '../../../src/core/write/claims/index.js';
import { PROBE_CORRECTIONS, PROBE_COMPATIBLE, PROBE_AGREEING } from './probe-pairs.js';

const C: Array<[string, string]> = [
  ['Headcount for the platform team is 12.', 'Platform team headcount dropped to 10 after the reorg.'],
  ['The annual license costs $4,000.', 'The annual license now costs $5,200.'],
  ['The conference budget is £3k per person.', 'Correction: the conference budget is £2.5k per person.'],
  ['We picked Svelte for the dashboard.', 'We decided to go with React for the dashboard instead.'],
  ['Our go-to database for new services is MongoDB.', 'Going forward we use Postgres for new services, not MongoDB.'],
  ['The sprint length is two weeks.', 'We changed the sprint length to one week.'],
  ["The project's working title is Bluebird.", 'The project is now called Kestrel.'],
  ['The cat is named Whiskers.', 'We renamed the cat Noodle.'],
  ['The all-hands is on the first Monday of the month.', 'The all-hands moved to the first Tuesday of the month.'],
  ['The user likes window seats.', 'The user now prefers aisle seats.'],
  ['The user hates cilantro.', 'The user actually likes cilantro now.'],
  ['Infra costs are about $20k a month.', 'Infra costs are now around $14k a month.'],
  ["Tim's desk is on the 3rd floor.", "Tim's desk moved to the 5th floor."],
  ['The user is on the Pro plan.', 'The user downgraded to the Free plan.'],
  ['The code review SLA is 24 hours.', 'The code review SLA is now 48 hours.'],
];
const K: Array<[string, string]> = [
  ['Headcount for the platform team is 12.', 'Headcount for the data team is 7.'],
  ['The annual license costs $4,000.', 'The support contract costs $1,000 a year.'],
  ['We picked Svelte for the dashboard.', 'We picked Tailwind for styling.'],
  ['The sprint length is two weeks.', 'The sprint review lasts one hour.'],
  ["The project's working title is Bluebird.", "The project's repo is called bluebird-core."],
  ['The cat is named Whiskers.', 'The dog is named Rufus.'],
  ['The all-hands is on the first Monday of the month.', 'The board meeting is on the first Tuesday of the month.'],
  ['The user likes window seats.', 'The user likes early flights.'],
  ['The user hates cilantro.', 'The user hates olives too.'],
  ["Tim's desk is on the 3rd floor.", "Tim's team sits on the 3rd floor."],
  ['The user is on the Pro plan.', 'The user is on the waitlist for the beta.'],
  ['The code review SLA is 24 hours.', 'The incident response SLA is 1 hour.'],
  ['Ana leads the design team.', 'Ana also leads the accessibility guild.'],
  ['The user prefers email for updates.', 'The user prefers phone calls for urgent issues.'],
  ['The release is planned for Q2.', 'The beta is planned for Q1.'],
  ['We use Kafka for events.', 'We use Kafka Connect for CDC.'],
  ['The user is 5 foot 9.', 'The user is 34.'],
  ['The API returns JSON.', 'The API returns errors as problem+json.'],
  ['Priya moved to London in 2019.', 'Priya moved her savings to a new bank.'],
  ['The team switched to trunk-based development.', 'The team switched on feature flags for the beta.'],
];
const A: Array<[string, string]> = [
  ['The annual license costs $4,000.', 'The license is $4,000 per year.'],
  ['We picked Svelte for the dashboard.', 'The dashboard is built with Svelte.'],
  ['The cat is named Whiskers.', "The cat's name is Whiskers."],
  ['The user likes window seats.', 'The user prefers window seats.'],
  ['The code review SLA is 24 hours.', 'Code reviews should happen within 24 hours.'],
];

test('probe', () => {
  const slot = (t: string) => analyseClaim(t).slots.map((s) => `[${s.subject}|${s.attribute}|${s.value}${s.negated ? '|NEG' : ''}${s.retract ? '|RET' : ''}]`).join(' ');
  const run = (label: string, set: Array<[string, string]>, want: string) => {
    let ok = 0; const lines: string[] = [];
    for (const [o, n] of set) {
      const r = compareClaims(n, o);
      const good = want === 'notsup' ? r.relation !== 'supersedes' : r.relation === want;
      if (good) ok++;
      lines.push(`${good ? '  ' : 'XX'} ${r.relation.slice(0, 4)} ${r.confidence.toFixed(2)} | ${o} => ${n} | ${r.reason}${good ? '' : `\n        old ${slot(o)}\n        new ${slot(n)}`}`);
    }
    console.log(`${label} ${ok}/${set.length}\n${lines.join('\n')}`);
  };
  const asTuples = (ps: readonly { old: string; new: string }[]) => ps.map((p) => [p.old, p.new] as [string, string]);
  run('REG-CORR', asTuples(PROBE_CORRECTIONS), 'supersedes');
  run('REG-COMP', asTuples(PROBE_COMPATIBLE), 'notsup');
  run('REG-AGREE', asTuples(PROBE_AGREEING), 'agrees');
  run('CORR', C, 'supersedes');
  run('COMP', K, 'notsup');
  run('AGREE', A, 'agrees');
});
