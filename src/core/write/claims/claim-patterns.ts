/**
 * Statement shapes with a fixed verb: transfers, changes, replacements, ownership, location, names,
 * preferences, decisions, schedules and counts. Each rule reads one marker-free clause and returns raw
 * slots (phrases as written); `claim-extractor.ts` normalises them. Rules run in order; the first that
 * returns slots wins. Copulas and free verbs are handled after these, in `copula-rules.ts`.
 */
import { type Cardinality, isKnownFamily } from './attribute-families.js';
import { NUMBER_PATTERN, contentTokens, numbersIn } from './claim-text.js';
import { analyseNounPhrase, isAgent, isPersonLike, isTeamLike } from './noun-phrase.js';
import { isTemporal, splitTrailingTemporal, stripTemporal } from './temporal.js';

/** A slot before normalisation. */
export interface RawSlot {
  /** Subject noun phrase as written ("" for the speaking group). */
  subject: string;
  /** Canonical family; undefined means "derive subject and attribute from the subject noun phrase". */
  family?: string;
  value: string;
  negated?: boolean;
  /** The statement says this value no longer holds (from-to, replaced, instead of). */
  retract?: boolean;
  cardinality?: Cardinality;
  /** The attribute came from a verb (free verbs default to `dimension`). */
  verbal?: boolean;
  /** The verb itself says the old value was left behind ("moved to", "replaced", "took over"). */
  change?: boolean;
  /** Which rule produced it, for reasons and debugging. */
  rule: string;
}

interface Rule {
  name: string;
  re: RegExp;
  build: (m: string[]) => RawSlot[] | undefined;
}

/** Optional auxiliary before a participle: "was moved", "has been transferred", "gets replaced". */
const BE = '(?:(?:is|are|was|were|has been|have been|had been|will be|will|is being|are being|gets|get|got|has|have|had) )?';
/** Change verbs, longest first so "went up" wins over "went". */
const CHANGE_VERBS =
  'brought forward|transitioned|pushed back|rescheduled|transferred|handed over|downgraded|moved back|' +
  'reassigned|went down|converted|decreased|increased|postponed|relocated|shortened|rebranded|expanded|' +
  'extended|migrated|migrates|moved up|promoted|switched|switches|upgraded|changed|changes|delayed|demoted|' +
  'dropped|lowered|migrate|reduced|renamed|shifted|swapped|updated|went up|bumped|change|jumped|ported|' +
  'pushed|raised|switch|moved|moves|fell|goes|grew|move|rose|went|cut|' +
  'transitioning|relocating|downgrading|switching|migrating|upgrading|changing|moving|slipped|slips|slid|' +
  'shrank|shrunk|shrinks|grown|grows|climbed|doubled|halved|contracted';
const NUMBER = NUMBER_PATTERN;

/** Does the phrase start with a number ("12 services")? */
const startsWithNumber = (phrase: string): boolean => numbersIn(phrase.split(' ')[0] ?? '').length > 0;

const HAPPEN_VERBS =
  'happens|happen|takes place|take place|occurs|occur|(?:is|are) held|meets|meet|recurs|runs|run|falls|fall|lands|' +
  'land|goes out|go out|goes live|go live|ships|ship|deploys|deploy|releases|release|rotates|rotate|renews|renew|' +
  'expires|expire|syncs|sync|refreshes|refresh|resets|reset';

/** The attribute a change verb implies, or undefined to take it from the noun phrase. */
function familyForChange(verb: string, subject: string, value: string): string | undefined {
  const v = verb.toLowerCase().replace(/ing$/, 'ed').replace(/eed$/, 'ed');
  if (/^(?:renamed|rebranded)$/.test(v)) return 'name';
  if (v === 'relocated') return 'location';
  if (/^(?:rescheduled|postponed|delayed|pushed|pushed back|brought forward|moved up|moved back)$/.test(v)) {
    return isTemporal(value) ? 'when' : undefined;
  }
  if (/^(?:promoted|demoted)$/.test(v)) return 'role';
  if (isTemporal(value)) return 'when';
  if (/^(?:grew|grown|grows|shrank|shrunk|shrinks|expanded|contracted|doubled|halved)$/.test(v) && startsWithNumber(value)) {
    return 'size';
  }
  // "Ownership moved to X": the subject names the attribute itself.
  const np = analyseNounPhrase(subject);
  if (np.named && isKnownFamily(np.attribute)) return undefined;
  if (/^(?:moved|move|moves|shifted|transferred|reassigned)$/.test(v) && isTeamLike(value) && !isTeamLike(subject)) {
    return isPersonLike(subject) || /^[A-Z][a-z]+$/.test(subject.trim()) ? 'member_of' : 'owner';
  }
  if (/^(?:moved|move|moves|shifted)$/.test(v)) return 'location';
  if (/^(?:transferred|reassigned|handed over)$/.test(v)) return isPersonLike(subject) ? 'assignment' : 'owner';
  return undefined;
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

/** A person or team named by a bare noun phrase (no verb inside: "Erin is the tech" is not an actor). */
function isActor(phrase: string): boolean {
  if (/\b(?:is|are|was|were|be|been|has|have|had|will)\b/i.test(phrase)) return false;
  return isTeamLike(phrase) || isPersonLike(phrase);
}

/** "Redis for the session store" → value "Redis", purpose "the session store". */
function withPurpose(agent: string, purpose: string | undefined): string {
  if (!purpose) return isAgent(agent) ? '' : agent;
  return isAgent(agent) || agent === '' ? purpose : `${agent} ${purpose}`;
}

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

const PARTICIPLE_NOUN: Readonly<Record<string, string>> = {
  built: 'build', written: 'write', developed: 'develop', made: 'make', implemented: 'implement', coded: 'code',
  bundled: 'bundle', compiled: 'compile', tested: 'test', provisioned: 'provision', packaged: 'package',
};

/** Fixed-verb rules, most specific first. */
export const RULES: readonly Rule[] = [
  {
    name: 'ownership-transfer',
    re: new RegExp(
      `^(?:the )?(?:ownership|responsibility|maintenance|stewardship|control|custody)(?: of| for| over) (.+?) ${BE}` +
        '(?:been )?(?:transferred|moved|handed over|handed off|passed|given|reassigned|assigned|shifted|transitioned) to (.+)$',
      'i',
    ),
    build: ([, thing = '', owner = '']) => [{ subject: thing, family: 'owner', value: owner, rule: 'ownership-transfer', change: true }],
  },
  {
    name: 'take-over',
    re: /^(.+?) (?:took|takes|has taken|have taken|will take|is taking|are taking) over (?:(?:the )?(?:ownership|responsibility|maintenance|stewardship) (?:of|for) )?(.+)$/i,
    build: ([, owner = '', thing = '']) => [{ subject: thing, family: 'owner', value: owner, rule: 'take-over', change: true }],
  },
  {
    name: 'hand-over',
    re: /^(.+?) (?:handed|passed|gave|has handed|have handed) (?:over |off )?(.+?) (?:over |off )?to (.+)$/i,
    build: ([full = '', , thing = '', owner = '']) =>
      /\b(?:over|off)\b/i.test(full) ? [{ subject: thing, family: 'owner', value: owner, rule: 'hand-over', change: true }] : undefined,
  },
  {
    name: 'left',
    re: /^(.+?) (?:left|quit|has left|have left|resigned from|resigned as|departed|departed from|dropped out of|stepped down from|stepped down as|is leaving|moved out of|moved away from|retired from|retired as|was removed from|was let go from) (.+)$/i,
    build: ([, who = '', what = '']) => [
      { subject: who, family: 'membership', value: stripTemporal(what) || what, negated: true, retract: true, rule: 'left', change: true },
    ],
  },
  {
    name: 'from-to',
    re: new RegExp(`^(.+?) ${BE}(?:been )?(${CHANGE_VERBS})(?: (.+?))? from (.+?) (?:to|into|over to) (.+)$`, 'i'),
    build: ([, subject = '', verb = '', object, from = '', to = '']) => {
      const thing = changedThing(subject, object);
      const family = familyForChange(verb, thing, to);
      return [
        { subject: thing, family, value: to, rule: 'from-to', change: true },
        { subject: thing, family, value: from, negated: true, retract: true, rule: 'from-to', change: true },
      ];
    },
  },
  {
    name: 'replaced-by',
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
    re: /^(.+?) (?:replaced|has replaced|have replaced|replaces|superseded|supersedes|has superseded|took the place of|succeeded|supplanted|overtook|has overtaken|have overtaken|overtakes|displaced|ousted|beat out|took over from) (.+?)(?: (?:as|for|in|on) (.+))?$/i,
    build: ([, newValue = '', oldValue = '', role]) => {
      const family = role ? undefined : 'tool';
      const retracted: RawSlot = { subject: role ?? '', family, value: oldValue, negated: true, retract: true, rule: 'replaces', change: true };
      // "We replaced the batteries": the replacement is unnamed, only the old value is known.
      if (isAgent(newValue)) return [retracted];
      return [{ subject: role ?? '', family, value: newValue, rule: 'replaces', change: true }, retracted];
    },
  },
  {
    name: 'change-to',
    re: new RegExp(`^(.+?) ${BE}(?:been )?(${CHANGE_VERBS})(?: (.+?))? (?:to|into|as) (.+)$`, 'i'),
    build: ([, subject = '', verb = '', object, to = '']) => {
      if (/^(?:went|goes)$/i.test(verb)) return undefined;
      const thing = changedThing(subject, object);
      return [{ subject: thing, family: familyForChange(verb, thing, to), value: to, rule: 'change-to', change: true }];
    },
  },
  {
    name: 'owned-by',
    re: new RegExp(
      `^(.+?) ${BE}(?:owned|maintained|managed|run|operated|looked after|administered|stewarded|handled|supported|overseen|taken care of) by (.+)$`,
      'i',
    ),
    build: ([, thing = '', owner = '']) => [{ subject: thing, family: 'owner', value: owner, rule: 'owned-by' }],
  },
  {
    name: 'led-by',
    re: new RegExp(`^(.+?) ${BE}(?:led|headed|chaired|directed|managed) by (.+)$`, 'i'),
    build: ([, thing = '', lead = '']) => [{ subject: thing, family: 'lead', value: lead, rule: 'led-by' }],
  },
  {
    name: 'belongs-to',
    re: /^(.+?) (?:belongs|belong|belonged) to (.+)$/i,
    build: ([, thing = '', owner = '']) => [{ subject: thing, family: 'owner', value: owner, rule: 'belongs-to' }],
  },
  {
    name: 'owns',
    re: /^(.+?) (?<!\b(?:our|my|their|his|her|its|your) )(?:owns|own|owned|maintains|maintain|maintained|(?:is|are|was|were) responsible for|(?:is|are|was|were) in charge of|(?:has|have|took|takes) ownership of|looks after|look after|administers|administer|(?:is|are) the (?:owner|owners|maintainer|maintainers) of|takes care of|take care of) (.+)$/i,
    build: ([, owner = '', thing = '']) =>
      startsWithNumber(thing) ? undefined : [{ subject: thing, family: 'owner', value: owner, rule: 'owns' }],
  },
  {
    name: 'runs',
    re: /^(.+?) (?:runs|run|manages|manage|handles|handle|operates|operate|oversees|oversee|supervises|supervise) (?!on\b|in\b|at\b|every\b|from\b|nightly\b|daily\b|weekly\b|smoothly\b|fine\b|well\b)(.+)$/i,
    build: ([, agent = '', thing = '']) => {
      if (!isActor(agent) || startsWithNumber(thing)) return undefined;
      if (isPersonLike(thing)) return [{ subject: thing, family: 'manager', value: agent, rule: 'runs' }];
      return [{ subject: thing, family: 'owner', value: agent, rule: 'runs' }];
    },
  },
  {
    name: 'leads',
    re: /^(.+?) (?:leads|lead|heads|head|chairs|chair) (?!to\b)(.+)$/i,
    build: ([, lead = '', thing = '']) =>
      isActor(lead) ? [{ subject: thing, family: 'lead', value: lead, rule: 'leads' }] : undefined,
  },
  {
    name: 'reports-to',
    re: /^(.+?) (?:reports|report|reported|is reporting|are reporting) (?:directly )?to (.+)$/i,
    build: ([, person = '', manager = '']) => [{ subject: person, family: 'manager', value: manager, rule: 'reports-to' }],
  },
  {
    name: 'be-called',
    re: /^(.+?) (?:wants|want|prefers|prefer|likes|like|asked|asks|would like|would prefer|would rather) to be (?:called|named|addressed as|known as|referred to as) (.+)$/i,
    build: ([, who = '', name = '']) => [{ subject: who, family: 'nickname', value: name, rule: 'be-called' }],
  },
  {
    name: 'joined',
    re: /^(.+?) (?:joined|has joined|have joined|is joining|are joining|will join|joins|join) (.+)$/i,
    build: ([, who = '', group = '']) => [{ subject: who, family: 'member_of', value: group, rule: 'joined' }],
  },
  {
    name: 'lives-in',
    re: /^(.+?) (?:lives|live|lived|is living|are living|resides|reside|resided|(?:is|are|was|were) (?:based|located|headquartered|situated|stationed)|sits|is staying|stays|has (?:moved|relocated)|is moving) (?:in|at|near|out of|on) (.+)$/i,
    build: ([, who = '', place = '']) => [{ subject: who, family: 'location', value: place, rule: 'lives-in' }],
  },
  {
    name: 'stored-in',
    re: new RegExp(`^(.+?) ${BE}(?:stored|kept|saved|archived|located|placed) (?:in|on|at|inside|under) (.+)$`, 'i'),
    build: ([, thing = '', place = '']) => [{ subject: thing, family: 'location', value: place, rule: 'stored-in' }],
  },
  {
    name: 'we-store',
    re: /^(.+?) (?:store|stores|stored|keep|keeps|kept|save|saves|saved|put|puts|archive|archives|archived|persist|persists) (.+?) (?:in|on|at|into|inside|under) (.+)$/i,
    build: ([, , thing = '', place = '']) => [{ subject: thing, family: 'location', value: place, rule: 'we-store' }],
  },
  {
    name: 'sent-to',
    re: new RegExp(
      `^(.+?) (?:go|goes|went|${BE}(?:sent|routed|forwarded|piped|delivered|redirected|escalated|directed|assigned|filed)|flow|flows|land|lands) (?:to|into|in) (.+)$`,
      'i',
    ),
    build: ([, thing = '', target = '']) =>
      isTemporal(target) ? undefined : [{ subject: thing, family: 'destination', value: target, rule: 'sent-to' }],
  },
  {
    name: 'we-send',
    re: /^(.+?) (?:send|sends|sent|route|routes|routed|forward|forwards|forwarded|pipe|pipes|piped|redirect|redirects|escalate|escalates|assign|assigns) (.+?) (?:to|into) (.+)$/i,
    build: ([, , thing = '', target = '']) => [{ subject: thing, family: 'destination', value: target, rule: 'we-send' }],
  },
  {
    name: 'deploys-to',
    re: new RegExp(`^(.+?) (?:${BE}deployed|deploys|deploy|ships|ship|releases|release|pushes|push|promotes|promote) to (.+)$`, 'i'),
    build: ([, who = '', target = '']) => [{ subject: who, family: 'deploy_target', value: target, rule: 'deploys-to' }],
  },
  {
    name: 'hosted-on',
    re: new RegExp(`^(.+?) ${BE}(?:hosted|served|deployed) (?:on|in|at|by|from|with|via) (.+)$`, 'i'),
    build: ([, thing = '', host = '']) => [{ subject: thing, family: 'host', value: host, rule: 'hosted-on' }],
  },
  {
    name: 'we-host',
    re: /^(.+?) (?:host|hosts|hosted|serve|serves) (.+?) (?:on|at|with|in|via|from) (.+)$/i,
    build: ([, , thing = '', host = '']) => [{ subject: thing, family: 'host', value: host, rule: 'we-host' }],
  },
  {
    name: 'runs-in',
    re: /^(.+?) (?:runs|run|is running|are running|operates|operate|lives|live) in (.+)$/i,
    build: ([, thing = '', place = '']) =>
      isTemporal(place) ? undefined : [{ subject: thing, family: 'location', value: place, rule: 'runs-in' }],
  },
  {
    name: 'works-in',
    re: /^(.+?) (?:works|work|worked|is working|are working|(?:is|are|was|were) employed) (in|from|at|for|by) (.+)$/i,
    build: ([, who = '', prep = '', place = '']) => {
      if (isTemporal(place)) return undefined;
      const family = /^(?:in|from)$/i.test(prep) ? 'work_location' : 'workplace';
      return [{ subject: who, family, value: place, rule: 'works-in' }];
    },
  },
  {
    name: 'agent-renamed',
    // "We renamed the cat Noodle": a determined object, then the new name (capitalised or a #channel).
    re: /^(.+?) (?:renamed|named|called|nicknamed|rebranded|retitled) ((?:the|our|my|his|her|their|its|a|an) [a-z][\w -]*?) ([A-Z#][\w.#-]*(?: [A-Z][\w.-]*)*)$/,
    build: ([full = '', , thing = '', name = '']) => [
      { subject: thing, family: /\bnicknamed\b/.test(full) ? 'nickname' : 'name', value: name, rule: 'agent-renamed', change: /\bre/.test(full) },
    ],
  },
  {
    name: 'called',
    re: new RegExp(`^(.+?) ${BE}(?:been )?(called|named|known as|titled|nicknamed|renamed|rebranded as) (.+)$`, 'i'),
    build: ([, thing = '', verb = '', name = '']) => [
      { subject: thing, family: verb.toLowerCase() === 'nicknamed' ? 'nickname' : 'name', value: name, rule: 'called' },
    ],
  },
  {
    name: 'goes-by',
    re: /^(.+?) (?:goes|go|went) by (.+)$/i,
    build: ([, who = '', name = '']) => [{ subject: who, family: 'nickname', value: name, rule: 'goes-by' }],
  },
  {
    name: 'likes-best',
    re: /^(.+?) (?:likes|like|liked|loves|love|loved|enjoys|enjoy|prefers|prefer) (.+?) (?:the )?(?:best|most|more than anything(?: else)?)$/i,
    build: ([, who = '', what = '']) => [{ subject: who, family: 'favourite', value: what, rule: 'likes-best' }],
  },
  {
    name: 'prefers',
    re: /^(.+?) (?:prefers|prefer|would rather have|would rather use|would rather|would prefer|favou?rs) (.+?)(?: (?:over|to|rather than|than) (.+))?$/i,
    build: ([, who = '', what = '', over]) => {
      const slots: RawSlot[] = [{ subject: who, family: 'prefers', value: what, rule: 'prefers' }];
      if (over && !/^to\b/i.test(what)) slots.push({ subject: who, family: 'prefers', value: over, negated: true, rule: 'prefers' });
      if (over && /^to\b/i.test(what)) slots[0] = { ...slots[0]!, value: `${what} to ${over}` };
      return slots;
    },
  },
  {
    name: 'dislikes',
    re: /^(.+?) (?:hates|hate|hated|dislikes|dislike|disliked|detests|detest|loathes|loathe|avoids|avoid) (.+)$/i,
    build: ([, who = '', what = '']) => [{ subject: who, family: 'likes', value: what, negated: true, rule: 'dislikes' }],
  },
  {
    name: 'likes',
    re: /^(.+?) (?:likes|like|liked|loves|love|loved|enjoys|enjoy|enjoyed|adores|adore|(?:is|are) (?:a |big |a big |huge |a huge )?fans? of|is into|are into|can stand) (.+)$/i,
    build: ([, who = '', what = '']) => [
      { subject: who, family: 'likes', value: what.replace(/^\w+ing (?=\w)/i, ''), rule: 'likes' },
    ],
  },
  {
    name: 'decided',
    re: /^(.+?) (?:(?:decided|have decided|has decided|agreed|have agreed|has agreed|chose|choose|chooses|have chosen|has chosen|opted|picked|selected|settled|voted|standardi[sz]ed)(?: (?:to use|to adopt|to go with|to switch to|to move to|to migrate to|to stick with|to standardi[sz]e on|to keep|on|for|with))?|(?:went|are going|is going|will go|have gone|has gone) with) (.+?)(?: (?:for|as) (.+))?$/i,
    build: ([, agent = '', what = '', purpose]) => {
      if (/^to \w+/i.test(what)) return [{ subject: withPurpose(agent, purpose), family: 'plan', value: what.slice(3), rule: 'decided', verbal: true }];
      return chosen(withPurpose(agent, purpose), 'tool', what, 'decided');
    },
  },
  {
    name: 'used-for',
    re: new RegExp(`^(.+?) ${BE}(?:used|adopted|chosen|picked|selected|preferred|the choice) (?:for|as|to handle|to run|in) (.+)$`, 'i'),
    build: ([, what = '', purpose = '']) => [{ subject: purpose, family: 'tool', value: what, rule: 'used-for' }],
  },
  {
    name: 'uses',
    re: /^(.+?) (?:will use|will be using|(?:is|are) going to use|uses|use|used|(?:is|are) using|relies on|rely on|relied on|depends on|depend on|(?:is|are) standardi[sz]ed on|adopted|adopts|adopt|went with|goes with|go with|(?:is|are) (?:built|based) on|(?:is|are) powered by) (.+?)(?: (?:for|as|to handle|to manage|to run|to do|in) (.+))?$/i,
    build: ([, agent = '', what = '', purpose]) =>
      purpose ? chosen(withPurpose(agent, purpose), 'tool', what, 'uses') : chosen(withPurpose(agent, undefined), 'uses', what, 'uses'),
  },
  {
    name: 'built-with',
    re: new RegExp(
      `^(.+?) ${BE}(?:been )?(built|written|developed|made|implemented|coded|bundled|compiled|tested|provisioned|packaged|rewritten|rebuilt|reimplemented|ported|migrated) (?:with|in|using|on|via|by|to) (.+)$`,
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
    re: new RegExp(`^.+? (?:${HAPPEN_VERBS})\\b.+$`, 'i'),
    build: ([clause = '']) => {
      // Several words may read as the verb ("the design sync happens…"): take the first split whose rest is a time.
      for (const m of clause.matchAll(new RegExp(` (${HAPPEN_VERBS})(?: on| at| in| during)?(?= )`, 'gi'))) {
        const event = clause.slice(0, m.index);
        const when = clause.slice(m.index + m[0].length + 1);
        if (!isTemporal(when) || /\b(?:have|has|had|is|are|was|were|do|does|did|will)\b/i.test(event)) continue;
        // "we deploy on Tuesdays": the event is the verb itself.
        const subject = isAgent(event) ? (m[1] ?? '').split(' ')[0]!.replace(/s$/, '') : event;
        return [{ subject, family: 'when', value: when, rule: 'happens' }];
      }
      return undefined;
    },
  },
  {
    name: 'starts',
    re: /^(.+?) (starts|start|started|begins|begin|began|kicks off|kick off|kicked off|commences|ends|end|ended|finishes|finish|wraps up|closes)(?: on| at| in| from)? (.+)$/i,
    build: ([, event = '', verb = '', when = '']) => {
      if (!isTemporal(when)) return undefined;
      const family = /^(?:ends|end|ended|finishes|finish|wraps up|closes)$/i.test(verb) ? 'end' : 'start';
      return [{ subject: event, family, value: when, rule: 'starts' }];
    },
  },
  {
    name: 'we-have-event',
    re: /^(?:we|i|you|they|the team) (?:have|hold|do|run|attend|host|meet for|get together for) (.+)$/i,
    build: ([, rest = '']) => {
      const split = splitTrailingTemporal(rest);
      return split ? [{ subject: split[0], family: 'when', value: split[1], rule: 'we-have-event' }] : undefined;
    },
  },
  {
    name: 'has-labelled',
    re: /^(.+?) (?:has|have|had|got|gets) (?:an? |the )?([^:]+?): (.+)$/i,
    build: ([, owner = '', attribute = '', value = '']) => [{ subject: `${owner}'s ${attribute}`, value, rule: 'has-labelled' }],
  },
  {
    name: 'measure',
    re: new RegExp(
      `^(.+?) (takes|take|took|lasts|last|lasted|costs|cost|weighs|weigh|measures|measure|averages|average|charges|charge|pays|pay|earns|earn|scores|score|holds|hold|fits|fit) (?:about |around |roughly |over |under |nearly |almost |up to |exactly |only |just )?((?:${NUMBER})\\b.*)$`,
      'i',
    ),
    build: ([, thing = '', verb = '', amount = '']) => [
      { subject: thing, family: measureFamily(verb), value: amount, rule: 'measure' },
    ],
  },
  {
    name: 'count',
    re: new RegExp(
      `^(.+?) (?:has|have|had|employs|employ|includes|include|contains|contain|consists of|comprises|counts|spans|runs|run|operates|operate|keeps|keep|maintains|maintain|hosts|host) (?:about |around |roughly |over |under |exactly |only |nearly |almost |up to )?(${NUMBER}) (.+)$`,
      'i',
    ),
    build: ([, whole = '', count = '', counted = '']) => [
      { subject: whole, family: `count ${contentTokens(counted).join(' ')}`, value: count, rule: 'count' },
    ],
  },
  {
    name: 'there-are',
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
    re: /^(.+?) (?:has|have|had|owns|got) (?:an? |some |several |many |multiple )(.+)$/i,
    build: ([, whole = '', what = '']) => [{ subject: whole, family: 'has', value: what, rule: 'has' }],
  },
];
