/**
 * What people and systems like, choose, use and do: preferences, decisions, tools, schedules, measures
 * and counts.
 */
import { contentTokens } from './claim-text.js';
import { isAgent } from './noun-phrase.js';
import { verbAlternation } from './inflect.js';
import { BE, NUMBER, type RawSlot, type Rule, withPurpose } from './rule-types.js';
import { isTemporal, splitTrailingTemporal } from './temporal.js';
import { dictionary } from '../../text/dictionary.js';

const HAPPEN_VERBS = [
  verbAlternation(['happen', 'take place', 'occur'], ['third', 'base']),
  '(?:is|are) held',
  verbAlternation(['meet'], ['third', 'base']),
  verbAlternation(['recur'], ['third']),
  verbAlternation(
    ['run', 'fall', 'land', 'go out', 'go live', 'ship', 'deploy', 'release', 'rotate', 'renew', 'expire', 'sync', 'refresh', 'reset'],
    ['third', 'base'],
  ),
].join('|');

/** The attribute a measuring verb names: "takes 20 minutes" → duration, "costs $5" → cost. */
function measureFamily(verb: string): string {
  const v = verb.toLowerCase();
  if (/^(?:takes?|took|lasts?|lasted)$/.test(v)) return 'duration';
  if (/^(?:costs?|charges?)$/.test(v)) return 'cost';
  if (/^weighs?$/.test(v)) return 'weight';
  if (/^(?:pays?|earns?)$/.test(v)) return 'pay';
  if (/^(?:measures?|fits?|holds?)$/.test(v)) return 'size';
  return v.replace(/s$/, '');
}

/** "Redis over Memcached" → ["Redis", "Memcached"]: the second is passed over. */
function splitOver(value: string): [string, string | undefined] {
  const m = /^(.+?) (?:over|rather than|and not|not) (.+)$/i.exec(value);
  return m?.[1] && m[2] ? [m[1], m[2]] : [value, undefined];
}

/** A chosen value plus, when something was passed over, a retracted slot for it. */
function chosen(subject: string, family: string, value: string, rule: string): RawSlot[] {
  const [picked, passedOver] = splitOver(value);
  const slots: RawSlot[] = [{ subject, family, value: picked, rule }];
  if (passedOver) slots.push({ subject, family, value: passedOver, negated: true, retract: true, rule });
  return slots;
}

const PARTICIPLE_NOUN: Readonly<Record<string, string>> = dictionary({
  built: 'build',
  written: 'write',
  developed: 'develop',
  made: 'make',
  implemented: 'implement',
  coded: 'code',
  bundled: 'bundle',
  compiled: 'compile',
  tested: 'test',
  provisioned: 'provision',
  packaged: 'package',
});

/** Activity rules, most specific first. */
export const ACTIVITY_RULES: readonly Rule[] = [
  {
    name: 'likes-best',
    examples: [{ text: 'The user likes jazz the most.', slot: { subject: 'user', attribute: 'favourite', value: 'jazz' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['like', 'love'])}|${verbAlternation(['enjoy', 'prefer'], ['third', 'base'])}) (.+?) (?:the )?(?:best|most|more than anything(?: else)?)$`,
      'i',
    ),
    build: ([, who = '', what = '']) => [{ subject: who, family: 'favourite', value: what, rule: 'likes-best' }],
  },
  {
    name: 'prefers',
    examples: [{ text: 'The user prefers window seats.', slot: { subject: 'user', attribute: 'prefers', value: 'window seats' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['prefer'], ['third', 'base'])}|would rather have|would rather use|would rather|would prefer|favou?rs) (.+?)(?: (?:over|to|rather than|than) (.+))?$`,
      'i',
    ),
    build: ([, who = '', what = '', over]) => {
      const slots: RawSlot[] = [{ subject: who, family: 'prefers', value: what, rule: 'prefers' }];
      if (over && !/^to\b/i.test(what)) slots.push({ subject: who, family: 'prefers', value: over, negated: true, rule: 'prefers' });
      if (over && /^to\b/i.test(what)) slots[0] = { ...slots[0]!, value: `${what} to ${over}` };
      return slots;
    },
  },
  {
    name: 'dislikes',
    examples: [{ text: 'The user hates cilantro.', slot: { subject: 'user', attribute: 'likes', value: 'cilantro', negated: true } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['hate', 'dislike'])}|${verbAlternation(['detest', 'loathe', 'avoid'], ['third', 'base'])}) (.+)$`,
      'i',
    ),
    build: ([, who = '', what = '']) => [{ subject: who, family: 'likes', value: what, negated: true, rule: 'dislikes' }],
  },
  {
    name: 'likes',
    examples: [{ text: 'The user loves hiking.', slot: { subject: 'user', attribute: 'likes', value: 'hiking' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['like', 'love', 'enjoy'])}|${verbAlternation(['adore'], ['third', 'base'])}|(?:is|are) (?:a |big |a big |huge |a huge )?fans? of|is into|are into|can stand) (.+)$`,
      'i',
    ),
    build: ([, who = '', what = '']) => [{ subject: who, family: 'likes', value: what.replace(/^\w+ing (?=\w)/i, ''), rule: 'likes' }],
  },
  {
    name: 'decided',
    examples: [{ text: 'We decided to use Redis for caching.', slot: { subject: 'caching', attribute: 'tool', value: 'redis' } }],
    re: /^(.+?) (?:(?:decided|have decided|has decided|agreed|have agreed|has agreed|chose|choose|chooses|have chosen|has chosen|opted|picked|selected|settled|voted|standardi[sz]ed)(?: (?:to use|to adopt|to go with|to switch to|to move to|to migrate to|to stick with|to standardi[sz]e on|to keep|on|for|with))?|(?:went|are going|is going|will go|have gone|has gone) with) (.+?)(?: (?:for|as) (.+))?$/i,
    build: ([, agent = '', what = '', purpose]) => {
      if (/^to \w+/i.test(what))
        return [{ subject: withPurpose(agent, purpose), family: 'plan', value: what.slice(3), rule: 'decided', verbal: true }];
      return chosen(withPurpose(agent, purpose), 'tool', what, 'decided');
    },
  },
  {
    name: 'used-for',
    examples: [{ text: 'Redis is used for caching.', slot: { subject: 'caching', attribute: 'tool', value: 'redis' } }],
    re: new RegExp(
      `^(.+?) ${BE}(?:${verbAlternation(['use', 'adopt', 'choose', 'pick', 'select', 'prefer'], ['participle'])}|the choice) (?:for|as|to handle|to run|in) (.+)$`,
      'i',
    ),
    build: ([, what = '', purpose = '']) => [{ subject: purpose, family: 'tool', value: what, rule: 'used-for' }],
  },
  {
    name: 'uses',
    examples: [{ text: 'We use pnpm.', slot: { subject: '', attribute: 'uses', value: 'pnpm' } }],
    re: new RegExp(
      `^(.+?) (?:will use|will be using|(?:is|are) going to use|${verbAlternation(['use'])}|(?:is|are) using|${verbAlternation(['rely on'])}|${verbAlternation(['depend on'], ['third', 'base'])}|(?:is|are) standardi[sz]ed on|${verbAlternation(['adopt'], ['past', 'third', 'base'])}|${verbAlternation(['go with'], ['past', 'third', 'base'])}|(?:is|are) (?:built|based) on|(?:is|are) powered by) (.+?)(?: (?:for|as|to handle|to manage|to run|to do|in) (.+))?$`,
      'i',
    ),
    build: ([, agent = '', what = '', purpose]) =>
      purpose ? chosen(withPurpose(agent, purpose), 'tool', what, 'uses') : chosen(withPurpose(agent, undefined), 'uses', what, 'uses'),
  },
  {
    name: 'built-with',
    examples: [{ text: 'The frontend is built with React.', slot: { subject: 'frontend build', attribute: 'tool', value: 'react' } }],
    re: new RegExp(
      `^(.+?) ${BE}(?:been )?(${verbAlternation(['build', 'write', 'develop', 'make', 'implement', 'code', 'bundle', 'compile', 'test', 'provision', 'package', 'rewrite', 'rebuild', 'reimplement', 'port', 'migrate'], ['participle'])}) (?:with|in|using|on|via|by|to) (.+)$`,
      'i',
    ),
    build: ([, thing = '', participle = '', tool = '']) => {
      const p = participle.toLowerCase();
      const redo = /^(?:re|ported|migrated)/.test(p);
      const activity = PARTICIPLE_NOUN[p.replace(/^re/, '')] ?? (redo ? 'write' : p);
      return [{ subject: `${thing} ${activity}`, family: 'tool', value: tool, rule: 'built-with', change: redo }];
    },
  },
  {
    name: 'scheduled',
    examples: [{ text: 'The launch is scheduled for March 3.', slot: { subject: 'launch', attribute: 'when', value: 'march 3' } }],
    re: new RegExp(
      `^(.+?) ${BE}(?:scheduled|planned|booked|slated|due|pencil+ed in|arranged|targeted|expected|set|happening|taking place|timed)(?: (?:for|on|at|in|to|by|until|around))? (.+)$`,
      'i',
    ),
    build: ([full = '', event = '', when = '']) => {
      if (/\b(?:set|expected|timed)\b/i.test(full) && !isTemporal(when)) return undefined;
      const family = /\bdue\b/i.test(full) ? 'deadline' : 'when';
      return [{ subject: event, family, value: when, rule: 'scheduled' }];
    },
  },
  {
    name: 'happens',
    examples: [{ text: 'The standup happens every morning at 9.', slot: { subject: 'standup', attribute: 'when', value: 'morning at 9' } }],
    re: new RegExp(`^.+? (?:${HAPPEN_VERBS})\\b.+$`, 'i'),
    build: ([clause = '']) => {
      // Several words may read as the verb ("the design sync happens…"): take the first split whose rest is a time.
      for (const m of clause.matchAll(new RegExp(` (${HAPPEN_VERBS})(?: on| at| in| during)?(?= )`, 'gi'))) {
        const event = clause.slice(0, m.index);
        const when = clause.slice(m.index + m[0].length + 1);
        if (!isTemporal(when) || /\b(?:have|has|had|is|are|was|were|do|does|did|will)\b/i.test(event)) continue;
        // "we deploy on Tuesdays": the event is the verb itself.
        const subject = isAgent(event) ? (m[1] ?? '').replace(/ .*$/, '').replace(/s$/, '') : event;
        return [{ subject, family: 'when', value: when, rule: 'happens' }];
      }
      return undefined;
    },
  },
  {
    name: 'starts',
    examples: [{ text: 'The sprint starts on Monday.', slot: { subject: 'sprint', attribute: 'start', value: 'monday' } }],
    re: new RegExp(
      `^(.+?) (${verbAlternation(['start', 'begin', 'kick off'])}|${verbAlternation(['commence'], ['third'])}|${verbAlternation(['end'])}|${verbAlternation(['finish'], ['third', 'base'])}|${verbAlternation(['wrap up', 'close'], ['third'])})(?: on| at| in| from)? (.+)$`,
      'i',
    ),
    build: ([, event = '', verb = '', when = '']) => {
      if (!isTemporal(when)) return undefined;
      const family = /^(?:ends|end|ended|finishes|finish|wraps up|closes)$/i.test(verb) ? 'end' : 'start';
      return [{ subject: event, family, value: when, rule: 'starts' }];
    },
  },
  {
    name: 'we-have-event',
    examples: [{ text: 'We have a retro every Friday.', slot: { subject: 'retro', attribute: 'when', value: 'friday' } }],
    re: /^(?:we|i|you|they|the team) (?:have|hold|do|run|attend|host|meet for|get together for) (.+)$/i,
    build: ([, rest = '']) => {
      const split = splitTrailingTemporal(rest);
      return split ? [{ subject: split[0], family: 'when', value: split[1], rule: 'we-have-event' }] : undefined;
    },
  },
  {
    name: 'has-labelled',
    examples: [{ text: 'The car has an issue: the brakes squeak.', slot: { subject: 'car', attribute: 'issue', value: 'brakes squeak' } }],
    re: /^(.+?) (?:has|have|had|got|gets) (?:an? |the )?([^:]+?): (.+)$/i,
    build: ([, owner = '', attribute = '', value = '']) => [{ subject: `${owner}'s ${attribute}`, value, rule: 'has-labelled' }],
  },
  {
    name: 'measure',
    examples: [{ text: 'The build takes 12 minutes.', slot: { subject: 'build', attribute: 'duration', value: '12 minutes' } }],
    re: new RegExp(
      `^(.+?) (${verbAlternation(['take', 'last'])}|${verbAlternation(['cost', 'weigh', 'measure', 'average', 'charge', 'pay', 'earn', 'score', 'hold', 'fit'], ['third', 'base'])}) (?:about |around |roughly |over |under |nearly |almost |up to |exactly |only |just )?((?:${NUMBER})\\b.*)$`,
      'i',
    ),
    build: ([, thing = '', verb = '', amount = '']) => [{ subject: thing, family: measureFamily(verb), value: amount, rule: 'measure' }],
  },
  {
    name: 'count',
    examples: [{ text: 'The team has 8 engineers.', slot: { subject: 'team', attribute: 'count engineer', value: '8' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['have'])}|${verbAlternation(['employ', 'include', 'contain'], ['third', 'base'])}|${verbAlternation(['consist of', 'comprise', 'count', 'span'], ['third'])}|${verbAlternation(['run', 'operate', 'keep', 'maintain', 'host'], ['third', 'base'])}) (?:about |around |roughly |over |under |exactly |only |nearly |almost |up to )?(${NUMBER}) (.+)$`,
      'i',
    ),
    build: ([, whole = '', count = '', counted = '']) => [
      { subject: whole, family: `count ${contentTokens(counted).join(' ')}`, value: count, rule: 'count' },
    ],
  },
  {
    name: 'we-are-count',
    examples: [{ text: 'We are 15 engineers.', slot: { subject: '', attribute: 'count engineer', value: '15' } }],
    // "We're 15 engineers now" counts the group as "we have 15 engineers" does; "we are 3 days late" is no count
    re: new RegExp(
      `^(we|they) (?:are|were|will be) (?:about |around |roughly |over |exactly |only |nearly |almost )?(${NUMBER}) (\\p{L}+s(?: in total)?)$`,
      'iu',
    ),
    build: ([, whole = '', count = '', counted = '']) => [
      {
        subject: whole,
        family: `count ${contentTokens(counted.replace(/ in total$/i, '')).join(' ')}`,
        value: count,
        rule: 'we-are-count',
      },
    ],
  },
  {
    name: 'there-are',
    examples: [
      {
        text: 'There are 40 servers in the Frankfurt region.',
        slot: { subject: 'frankfurt region', attribute: 'count server', value: '40' },
      },
    ],
    re: new RegExp(
      `^there (?:are|is|were|was|will be) (?:about |around |roughly |over |exactly |only |nearly )?(${NUMBER}) (.+?) (?:on|in|at|within|for|across) (.+)$`,
      'i',
    ),
    build: ([, count = '', counted = '', whole = '']) => [
      { subject: whole, family: `count ${contentTokens(counted).join(' ')}`, value: count, rule: 'there-are' },
    ],
  },
  {
    name: 'has',
    examples: [{ text: 'The user has a golden retriever.', slot: { subject: 'user', attribute: 'has', value: 'golden retriever' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['have'])}|${verbAlternation(['own'], ['third'])}|${verbAlternation(['get'], ['past'])}) (?:an? |some |several |many |multiple )(.+)$`,
      'i',
    ),
    build: ([, whole = '', what = '']) => [{ subject: whole, family: 'has', value: what, rule: 'has' }],
  },
];
