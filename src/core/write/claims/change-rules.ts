/**
 * Change statements: transfers, moves, switches, replacements, leaving. Their verbs say the old value was
 * left behind, so their slots carry `change` (and the old value, when named, a retracted slot).
 */
import { isKnownFamily } from './attribute-families.js';
import { verbAlternation } from './inflect.js';
import { analyzeNounPhrase, isAgent, isPersonLike, isTeamLike } from './noun-phrase.js';
import { termsOf } from './pos-tags.js';
import { BE, type RawSlot, type Rule, startsWithNumber, withPurpose } from './rule-types.js';
import { isTemporal, stripTemporal } from './temporal.js';
import { isToolName } from './tool-kinds.js';

/** Change verbs, longest first so "went up" wins over "went". */
const CHANGE_VERBS =
  'brought forward|transitioned|pushed back|rescheduled|transferred|handed over|downgraded|moved back|' +
  'reassigned|went down|converted|decreased|increased|postponed|relocated|shortened|rebranded|expanded|' +
  'extended|migrated|migrates|moved up|promoted|switched|switches|upgraded|changed|changes|delayed|demoted|' +
  'dropped|lowered|migrate|reduced|renamed|shifted|swapped|updated|went up|bumped|change|jumped|ported|' +
  'pushed|raised|switch|moved|moves|fell|goes|grew|move|rose|went|cut|' +
  'transitioning|relocating|downgrading|switching|migrating|upgrading|changing|moving|slipped|slips|slid|' +
  'shrank|shrunk|shrinks|grown|grows|climbed|doubled|halved|contracted';
/** The attribute a change verb implies, or undefined to take it from the noun phrase. */
function familyForChange(verb: string, subject: string, value: string): string | undefined {
  const v = verb.toLowerCase().replace(/ing$/, 'ed').replace(/eed$/, 'ed');
  if (/^(?:renamed|rebranded)$/.test(v)) return 'name';
  if (v === 'relocated') return 'location';
  if (/^(?:rescheduled|postponed|delayed|pushed|pushed back|brought forward|moved up|moved back)$/.test(v)) {
    if (isTemporal(value)) return 'when';
    // "moved back to Lisbon" is a move like any other; "pushed back to the next sprint" names no attribute
    if (v !== 'moved back') return undefined;
  }
  if (/^(?:promoted|demoted)$/.test(v)) return 'role';
  if (isTemporal(value)) return 'when';
  // "Standup moved to 10": a thing moved to a bare hour moved in time, not to a place
  if (/^(?:moved|move|moves|shifted|changed|bumped|pushed|pushed back|moved back|moved up)$/.test(v) && CLOCK_HOUR.test(value.trim()))
    return 'when';
  if (/^(?:grew|grown|grows|shrank|shrunk|shrinks|expanded|contracted|doubled|halved)$/.test(v) && startsWithNumber(value)) {
    return 'size';
  }
  // "Ownership moved to X": the subject names the attribute itself.
  const np = analyzeNounPhrase(subject);
  if (np.named && isKnownFamily(np.attribute)) return undefined;
  if (/^(?:moved|move|moves|moved back|shifted|transferred|reassigned)$/.test(v) && isTeamLike(value) && !isTeamLike(subject)) {
    return isPersonLike(subject) || /^[A-Z][a-z]+$/.test(subject.trim()) ? 'member_of' : 'owner';
  }
  // "We moved CI to GitHub Actions": a thing moved to a tool is now that tool ("our CI is Jenkins"), not
  // somewhere; a person who moves to one ("Priya moved to GitHub") is left to the place reading
  if (/^(?:moved|move|moves|shifted)$/.test(v) && isToolName(value) && !isMover(subject)) return undefined;
  if (/^(?:moved|move|moves|moved back|shifted)$/.test(v)) return 'location';
  if (/^(?:transferred|reassigned|handed over)$/.test(v)) return isPersonLike(subject) ? 'assignment' : 'owner';
  return undefined;
}

/** A bare hour of the day ("10", "9:30", "11am"), up to 24. */
const CLOCK_HOUR = /^(?:[01]?\d|2[0-4])(?::[0-5]\d)?(?:\s?(?:am|pm|a\.m\.|p\.m\.))?$/i;

/** Someone who moves themselves: a person, a one-word name ("Priya"), or a team. */
function isMover(subject: string): boolean {
  return isPersonLike(subject) || isTeamLike(subject) || /^[A-Z][a-z]+$/.test(subject.trim());
}

/**
 * Going back to a place: "moved back to", "relocated back to", "went/came/headed back (home) to", "returned
 * (home) to", "is back in". The place is where the subject is now, as after "moved to".
 */
const RETURN_VERB =
  `(?:${verbAlternation(['move', 'relocate', 'go', 'come', 'head', 'fly', 'get', 'settle'], ['base', 'third', 'past', 'participle', 'progressive'])}) back` +
  `|${verbAlternation(['return'], ['base', 'third', 'past', 'progressive'])}|(?:am|is|are) back`;

/** What one goes back to that is a state or an activity, not a place: "back to normal", "back to work". */
const NOT_A_PLACE = /^(?:normal|sleep|bed|work|school|basics|square one|the drawing board|life|it|that|this|the topic|the subject)$/i;

/** The place of a return rule, or undefined when the phrase is a time, an activity or a state. */
function returnPlace(phrase: string): string | undefined {
  const place = phrase.trim();
  if (place === '' || NOT_A_PLACE.test(place) || isTemporal(place)) return undefined;
  const first = termsOf(place)[0]?.tags;
  if (first !== undefined && (first.has('Gerund') || (first.has('Verb') && !first.has('Noun')))) return undefined;
  return place;
}

/**
 * Who the change is about: an object after the verb wins over an agent subject ("we migrated the queue"),
 * and a possessive pronoun object keeps the subject ("the user changed their language" → "the user's language").
 */
function changedThing(subject: string, object: string | undefined): string {
  if (!object) return subject;
  const pronoun = /^(?:his|her|their|its|my|our|your) (.+)$/i.exec(object.trim());
  if (pronoun?.[1] && !isAgent(subject)) return `${subject}'s ${pronoun[1]}`;
  return object;
}

/**
 * A new value without the time of the change after it: "GitHub Actions last week" → "GitHub Actions" (the
 * change happened last week; the value is the tool). A value that is itself a time stays whole.
 */
function withoutTimeOfChange(value: string): string {
  if (isTemporal(value)) return value;
  const words = value.trim().split(' ');
  // the longest head: "PostgreSQL 15 last month" keeps its version, a tail opening with a number is no time of it
  for (let i = 1; i < words.length; i += 1) {
    const tail = words.slice(i).join(' ');
    if (!/^\d/.test(tail) && isTemporal(tail)) return words.slice(0, i).join(' ');
  }
  return value;
}

/** A person or team by name ("Sam", "the payments team"), not a place or a thing handed over. */
function isActorName(phrase: string): boolean {
  return /^\p{Lu}[\p{L}'-]*(?: \p{Lu}[\p{L}'-]*)?$/u.test(phrase.trim()) || isTeamLike(phrase) || isPersonLike(phrase);
}

/** Change rules, most specific first. */
export const CHANGE_RULES: readonly Rule[] = [
  {
    name: 'ownership-transfer',
    examples: [
      {
        text: 'Ownership of the billing service was transferred to the payments team.',
        slot: { subject: 'billing service', attribute: 'owner', value: 'payments team' },
      },
    ],
    re: new RegExp(
      `^(?:the )?(?:ownership|responsibility|maintenance|stewardship|control|custody)(?: of| for| over) (.+?) ${BE}` +
        '(?:been )?(?:transferred|moved|handed over|handed off|passed|given|reassigned|assigned|shifted|transitioned) to (.+)$',
      'i',
    ),
    build: ([, thing = '', owner = '']) => [{ subject: thing, family: 'owner', value: owner, rule: 'ownership-transfer', change: true }],
  },
  {
    name: 'take-over',
    examples: [
      { text: 'Maria took over the onboarding flow.', slot: { subject: 'onboarding flow', attribute: 'owner', value: 'maria' } },
      { text: 'Dana took over billing from Sam.', slot: { subject: 'billing', attribute: 'owner', value: 'dana' } },
      { text: 'Carol took over as team lead last week.', slot: { subject: 'team lead', attribute: 'value', value: 'carol' } },
    ],
    re: /^(.+?) (?:took|takes|has taken|have taken|will take|is taking|are taking) over (?:(?:the )?(?:ownership|responsibility|maintenance|stewardship) (?:of|for) )?(.+)$/i,
    build: ([, owner = '', target = '']) => {
      const taken = withoutTimeOfChange(target);
      // "Carol took over as team lead": she fills the role, as in "the team lead is Carol"
      const role = /^as (.+)$/i.exec(taken)?.[1];
      if (role !== undefined) return [{ subject: role, value: owner, rule: 'take-over', change: true }];
      // "Dana took over billing from Sam": Sam no longer owns it
      const from = /^(.+?) from (.+)$/i.exec(taken);
      const thing = from?.[1] ?? taken;
      const slots: RawSlot[] = [{ subject: thing, family: 'owner', value: owner, rule: 'take-over', change: true }];
      if (from?.[2] !== undefined && isActorName(from[2]))
        slots.push({ subject: thing, family: 'owner', value: from[2], negated: true, retract: true, rule: 'take-over', change: true });
      return slots;
    },
  },
  {
    name: 'hand-over',
    examples: [
      {
        text: 'Sam handed over the release checklist to Priya.',
        slot: { subject: 'release checklist', attribute: 'owner', value: 'priya' },
      },
    ],
    re: /^(.+?) (?:handed|passed|gave|has handed|have handed) (?:over |off )?(.+?) (?:over |off )?to (.+)$/i,
    build: ([full = '', , thing = '', owner = '']) =>
      /\b(?:over|off)\b/i.test(full) ? [{ subject: thing, family: 'owner', value: owner, rule: 'hand-over', change: true }] : undefined,
  },
  {
    name: 'left',
    examples: [
      { text: 'Tom left the platform team.', slot: { subject: 'tom', attribute: 'membership', value: 'platform team', negated: true } },
    ],
    re: /^(.+?) (?:left|quit|has left|have left|resigned from|resigned as|departed|departed from|dropped out of|stepped down from|stepped down as|is leaving|moved out of|moved away from|retired from|retired as|was removed from|was let go from) (.+)$/i,
    build: ([, who = '', what = '']) => [
      { subject: who, family: 'membership', value: stripTemporal(what) || what, negated: true, retract: true, rule: 'left', change: true },
    ],
  },
  {
    name: 'from-to',
    examples: [
      {
        text: 'The deploy target moved from staging to production.',
        slot: { subject: '', attribute: 'deploy_target', value: 'production' },
      },
    ],
    re: new RegExp(`^(.+?) ${BE}(?:been )?(${CHANGE_VERBS})(?: (.+?))? from (.+?) (?:to|into|over to) (.+)$`, 'i'),
    build: ([, subject = '', verb = '', object, from = '', target = '']) => {
      const thing = changedThing(subject, object);
      const to = withoutTimeOfChange(target);
      const family = familyForChange(verb, thing, to);
      return [
        { subject: thing, family, value: to, rule: 'from-to', change: true },
        { subject: thing, family, value: from, negated: true, retract: true, rule: 'from-to', change: true },
      ];
    },
  },
  {
    name: 'replaced-by',
    examples: [
      { text: 'Jenkins was replaced by GitHub Actions for CI.', slot: { subject: 'ci', attribute: 'tool', value: 'github actions' } },
    ],
    re: new RegExp(
      `^(.+?) ${BE}(?:been )?(?:replaced|superseded|swapped out|swapped|succeeded|supplanted) (?:with|by) (.+?)(?: (?:for|as|in|on) (.+))?$`,
      'i',
    ),
    build: ([, oldValue = '', newValue = '', purpose]) => [
      { subject: purpose ?? '', family: 'tool', value: newValue, rule: 'replaced-by', change: true },
      { subject: purpose ?? '', family: 'tool', value: oldValue, negated: true, retract: true, rule: 'replaced-by', change: true },
    ],
  },
  {
    name: 'replaced-with',
    examples: [{ text: 'We replaced MySQL with Postgres.', slot: { subject: '', attribute: 'tool', value: 'postgres' } }],
    re: /^(.+?) (?:replaced|replace|replaces|has replaced|have replaced|swapped out|swapped|swap|exchanged) (.+?) (?:with|for|by) (.+?)(?: (?:for|as|in|on) (.+))?$/i,
    build: ([, agent = '', oldValue = '', newValue = '', purpose]) => {
      const subject = withPurpose(agent, purpose);
      return [
        { subject, family: 'tool', value: newValue, rule: 'replaced-with', change: true },
        { subject, family: 'tool', value: oldValue, negated: true, retract: true, rule: 'replaced-with', change: true },
      ];
    },
  },
  {
    name: 'replaces',
    examples: [{ text: 'Grafana replaced Kibana as the dashboard.', slot: { subject: 'dashboard', attribute: 'value', value: 'grafana' } }],
    re: /^(.+?) (?:replaced|has replaced|have replaced|replaces|superseded|supersedes|has superseded|took the place of|succeeded|supplanted|overtook|has overtaken|have overtaken|overtakes|displaced|ousted|beat out|took over from) (.+?)(?: (?:as|for|in|on) (.+))?$/i,
    build: ([, newValue = '', oldValue = '', role]) => {
      const family = role ? undefined : 'tool';
      const retracted: RawSlot = {
        subject: role ?? '',
        family,
        value: oldValue,
        negated: true,
        retract: true,
        rule: 'replaces',
        change: true,
      };
      // "We replaced the batteries": the replacement is unnamed, only the old value is known.
      if (isAgent(newValue)) return [retracted];
      return [{ subject: role ?? '', family, value: newValue, rule: 'replaces', change: true }, retracted];
    },
  },
  {
    name: 'moved-back',
    examples: [
      { text: 'I moved back to Lisbon.', slot: { subject: 'user', attribute: 'location', value: 'lisbon' } },
      { text: 'Dana returned home to Oslo.', slot: { subject: 'dana', attribute: 'location', value: 'oslo' } },
      { text: "I'm back in Lisbon now.", slot: { subject: 'user', attribute: 'location', value: 'lisbon' } },
    ],
    re: new RegExp(`^(.+?) ${BE}(?:been )?(?:${RETURN_VERB})(?: home)? (?:to|into|in|at) (.+)$`, 'i'),
    build: ([, who = '', where = '']) => {
      // "returned to Lisbon from Porto": the place left is named too
      const from = /^(.+?) from (.+)$/i.exec(where);
      const left = from?.[2] !== undefined && !isTemporal(from[2]) ? from[2] : undefined;
      const place = returnPlace(left !== undefined ? (from?.[1] ?? '') : stripTemporal(where) || where);
      if (place === undefined) return undefined;
      const family = familyForChange('moved', who, place);
      const slots: RawSlot[] = [{ subject: who, family, value: place, rule: 'moved-back', change: true }];
      if (left !== undefined)
        slots.push({ subject: who, family, value: left, negated: true, retract: true, rule: 'moved-back', change: true });
      return slots;
    },
  },
  {
    name: 'change-to',
    examples: [{ text: 'The meeting was moved to Thursday.', slot: { subject: 'meeting', attribute: 'when', value: 'thursday' } }],
    re: new RegExp(`^(.+?) ${BE}(?:been )?(${CHANGE_VERBS})(?: (.+?))? (?:to|into|as) (.+)$`, 'i'),
    build: ([, subject = '', verb = '', object, target = '']) => {
      if (/^(?:went|goes)$/i.test(verb)) return undefined;
      const thing = changedThing(subject, object);
      const to = withoutTimeOfChange(target);
      return [{ subject: thing, family: familyForChange(verb, thing, to), value: to, rule: 'change-to', change: true }];
    },
  },
];
