/**
 * Relations with a fixed verb: ownership and leadership, reporting lines, membership, location, storage,
 * destinations, deploy targets, hosting, workplaces and names.
 */
import { isPersonLike } from './noun-phrase.js';
import { verbAlternation } from './inflect.js';
import { BE, NOT_A_PREDICATE, type Rule, isActor, startsWithNumber } from './rule-types.js';
import { isTemporal } from './temporal.js';

/**
 * A thing introduced as one of several ("has a dog", "another sister", "a second cat"), whose name adds to
 * the others' rather than replacing them. "A new …" is excluded: it says the thing itself changed.
 */
const INDEFINITE_THING = /(?:^|\s)(?:an?|another|one more|a (?:second|third|fourth)) (?!new\b)[^,;]+$/i;

/** Relation rules, most specific first. */
export const RELATION_RULES: readonly Rule[] = [
  {
    name: 'owned-by',
    examples: [
      {
        text: 'The billing service is owned by the payments team.',
        slot: { subject: 'billing service', attribute: 'owner', value: 'payments team' },
      },
    ],
    re: new RegExp(
      `^(.+?) ${BE}(?:${verbAlternation(['own', 'maintain', 'manage', 'run', 'operate', 'look after', 'administer', 'steward', 'handle', 'support', 'oversee', 'take care of'], ['participle'])}) by (.+)$`,
      'i',
    ),
    build: ([, thing = '', owner = '']) => [{ subject: thing, family: 'owner', value: owner, rule: 'owned-by' }],
  },
  {
    name: 'led-by',
    examples: [{ text: 'The mobile team is led by Aisha.', slot: { subject: 'mobile team', attribute: 'lead', value: 'aisha' } }],
    re: new RegExp(`^(.+?) ${BE}(?:${verbAlternation(['lead', 'head', 'chair', 'direct', 'manage'], ['participle'])}) by (.+)$`, 'i'),
    build: ([, thing = '', lead = '']) => [{ subject: thing, family: 'lead', value: lead, rule: 'led-by' }],
  },
  {
    name: 'belongs-to',
    examples: [{ text: 'The red bike belongs to Chen.', slot: { subject: 'red bike', attribute: 'owner', value: 'chen' } }],
    re: new RegExp(`^(.+?) (?:${verbAlternation(['belong'])}) to (.+)$`, 'i'),
    build: ([, thing = '', owner = '']) => [{ subject: thing, family: 'owner', value: owner, rule: 'belongs-to' }],
  },
  {
    name: 'owns',
    examples: [
      {
        text: 'The platform team owns the deploy pipeline.',
        slot: { subject: 'deploy pipeline', attribute: 'owner', value: 'platform team' },
      },
    ],
    re: new RegExp(
      `^(.+?) (?<!\\b(?:our|my|their|his|her|its|your) )(?:${verbAlternation(['own', 'maintain'])}|(?:is|are|was|were) responsible for|(?:is|are|was|were) in charge of|(?:has|have|took|takes) ownership of|${verbAlternation(['look after', 'administer'], ['third', 'base'])}|(?:is|are) the (?:owner|owners|maintainer|maintainers) of|${verbAlternation(['take care of'], ['third', 'base'])}) (.+)$`,
      'i',
    ),
    build: ([, owner = '', thing = '']) =>
      startsWithNumber(thing) ? undefined : [{ subject: thing, family: 'owner', value: owner, rule: 'owns' }],
  },
  {
    name: 'runs',
    examples: [{ text: 'Dana runs the data team.', slot: { subject: 'data team', attribute: 'owner', value: 'dana' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['run', 'manage', 'handle', 'operate', 'oversee', 'supervise'], ['third', 'base'])}) (?!on\\b|in\\b|at\\b|every\\b|from\\b|nightly\\b|daily\\b|weekly\\b|smoothly\\b|fine\\b|well\\b)${NOT_A_PREDICATE}(.+)$`,
      'i',
    ),
    build: ([, agent = '', thing = '']) => {
      if (!isActor(agent) || startsWithNumber(thing)) return undefined;
      if (isPersonLike(thing)) return [{ subject: thing, family: 'manager', value: agent, rule: 'runs' }];
      return [{ subject: thing, family: 'owner', value: agent, rule: 'runs' }];
    },
  },
  {
    name: 'leads',
    examples: [{ text: 'Marta heads the design team.', slot: { subject: 'design team', attribute: 'lead', value: 'marta' } }],
    re: new RegExp(`^(.+?) (?:${verbAlternation(['lead', 'head', 'chair'], ['third', 'base'])}) (?!to\\b)${NOT_A_PREDICATE}(.+)$`, 'i'),
    build: ([, lead = '', thing = '']) => (isActor(lead) ? [{ subject: thing, family: 'lead', value: lead, rule: 'leads' }] : undefined),
  },
  {
    name: 'reports-to',
    examples: [{ text: 'Leo reports to Marta.', slot: { subject: 'leo', attribute: 'manager', value: 'marta' } }],
    re: new RegExp(`^(.+?) (?:${verbAlternation(['report'])}|is reporting|are reporting) (?:directly )?to (.+)$`, 'i'),
    build: ([, person = '', manager = '']) => [{ subject: person, family: 'manager', value: manager, rule: 'reports-to' }],
  },
  {
    name: 'be-called',
    examples: [{ text: 'The user wants to be called Sasha.', slot: { subject: 'user', attribute: 'nickname', value: 'sasha' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['want', 'prefer', 'like'], ['third', 'base'])}|asked|asks|would like|would prefer|would rather) to be (?:called|named|addressed as|known as|referred to as) (.+)$`,
      'i',
    ),
    build: ([, who = '', name = '']) => [{ subject: who, family: 'nickname', value: name, rule: 'be-called' }],
  },
  {
    name: 'joined',
    examples: [{ text: 'Omar joined the infra team.', slot: { subject: 'omar', attribute: 'member_of', value: 'infra team' } }],
    re: /^(.+?) (?:joined|has joined|have joined|is joining|are joining|will join|joins|join) (.+)$/i,
    build: ([, who = '', group = '']) => [{ subject: who, family: 'member_of', value: group, rule: 'joined' }],
  },
  {
    name: 'lives-in',
    examples: [{ text: 'My sister lives in Lisbon.', slot: { subject: 'sister', attribute: 'location', value: 'lisbon' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['live'])}|is living|are living|${verbAlternation(['reside'])}|(?:is|are|was|were) (?:based|located|headquartered|situated|stationed)|sits|is staying|stays|has (?:moved|relocated)|is moving) (?:in|at|near|out of|on) (.+)$`,
      'i',
    ),
    build: ([, who = '', place = '']) => [{ subject: who, family: 'location', value: place, rule: 'lives-in' }],
  },
  {
    name: 'stored-in',
    examples: [{ text: 'The backups are stored in S3.', slot: { subject: 'backup', attribute: 'location', value: 's3' } }],
    re: new RegExp(
      `^(.+?) ${BE}(?:${verbAlternation(['store', 'keep', 'save', 'archive', 'locate', 'place'], ['participle'])}) (?:in|on|at|inside|under) (.+)$`,
      'i',
    ),
    build: ([, thing = '', place = '']) => [{ subject: thing, family: 'location', value: place, rule: 'stored-in' }],
  },
  {
    name: 'we-store',
    examples: [{ text: 'We store the logs in Elasticsearch.', slot: { subject: 'log', attribute: 'location', value: 'elasticsearch' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['store', 'keep', 'save', 'put', 'archive'], ['base', 'third', 'past'])}|${verbAlternation(['persist'], ['base', 'third'])}) (.+?) (?:in|on|at|into|inside|under) (.+)$`,
      'i',
    ),
    build: ([, , thing = '', place = '']) => [{ subject: thing, family: 'location', value: place, rule: 'we-store' }],
  },
  {
    name: 'sent-to',
    examples: [
      { text: 'Alerts are routed to the on-call channel.', slot: { subject: 'alert', attribute: 'destination', value: 'on-call channel' } },
    ],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['go'], ['base', 'third', 'past'])}|${BE}(?:${verbAlternation(['send', 'route', 'forward', 'pipe', 'deliver', 'redirect', 'escalate', 'direct', 'assign', 'file'], ['participle'])})|${verbAlternation(['flow', 'land'], ['base', 'third'])}) (?:to|into|in) (.+)$`,
      'i',
    ),
    build: ([, thing = '', target = '']) =>
      isTemporal(target) ? undefined : [{ subject: thing, family: 'destination', value: target, rule: 'sent-to' }],
  },
  {
    name: 'we-send',
    examples: [
      { text: 'We send invoices to the finance inbox.', slot: { subject: 'invoice', attribute: 'destination', value: 'finance inbox' } },
    ],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['send', 'route', 'forward', 'pipe'], ['base', 'third', 'past'])}|${verbAlternation(['redirect', 'escalate', 'assign'], ['base', 'third'])}) (.+?) (?:to|into) (.+)$`,
      'i',
    ),
    build: ([, , thing = '', target = '']) => [{ subject: thing, family: 'destination', value: target, rule: 'we-send' }],
  },
  {
    name: 'deploys-to',
    examples: [{ text: 'The API deploys to Fly.io.', slot: { subject: 'api', attribute: 'deploy_target', value: 'fly.io' } }],
    re: new RegExp(
      `^(.+?) (?:${BE}deployed|${verbAlternation(['deploy', 'ship', 'release', 'push', 'promote'], ['third', 'base'])}) to (.+)$`,
      'i',
    ),
    build: ([, who = '', target = '']) => [{ subject: who, family: 'deploy_target', value: target, rule: 'deploys-to' }],
  },
  {
    name: 'hosted-on',
    examples: [{ text: 'The docs site is hosted on Netlify.', slot: { subject: 'doc site', attribute: 'host', value: 'netlify' } }],
    re: new RegExp(
      `^(.+?) ${BE}(?:${verbAlternation(['host', 'serve', 'deploy'], ['participle'])}) (?:on|in|at|by|from|with|via) (.+)$`,
      'i',
    ),
    build: ([, thing = '', host = '']) => [{ subject: thing, family: 'host', value: host, rule: 'hosted-on' }],
  },
  {
    name: 'we-host',
    examples: [{ text: 'We host the wiki on Confluence.', slot: { subject: 'wiki', attribute: 'host', value: 'confluence' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['host'], ['base', 'third', 'past'])}|${verbAlternation(['serve'], ['base', 'third'])}) (.+?) (?:on|at|with|in|via|from) (.+)$`,
      'i',
    ),
    build: ([, , thing = '', host = '']) => [{ subject: thing, family: 'host', value: host, rule: 'we-host' }],
  },
  {
    name: 'runs-in',
    examples: [{ text: 'The worker runs in Kubernetes.', slot: { subject: 'worker', attribute: 'location', value: 'kubernetes' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['run'], ['third', 'base'])}|is running|are running|${verbAlternation(['operate', 'live'], ['third', 'base'])}) in (.+)$`,
      'i',
    ),
    build: ([, thing = '', place = '']) =>
      isTemporal(place) ? undefined : [{ subject: thing, family: 'location', value: place, rule: 'runs-in' }],
  },
  {
    name: 'works-in',
    examples: [{ text: 'Jana works at Stripe.', slot: { subject: 'jana', attribute: 'workplace', value: 'stripe' } }],
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['work'])}|is working|are working|(?:is|are|was|were) employed) (in|from|at|for|by) (.+)$`,
      'i',
    ),
    build: ([, who = '', prep = '', place = '']) => {
      if (isTemporal(place)) return undefined;
      const family = /^(?:in|from)$/i.test(prep) ? 'work_location' : 'workplace';
      return [{ subject: who, family, value: place, rule: 'works-in' }];
    },
  },
  {
    name: 'agent-renamed',
    examples: [{ text: 'We renamed the cat Noodle.', slot: { subject: 'cat', attribute: 'name', value: 'noodle' } }],
    // "We renamed the cat Noodle": a determined object, then the new name (capitalised or a #channel).
    re: new RegExp(
      `^(.+?) (?:${verbAlternation(['rename', 'name', 'call', 'nickname', 'rebrand', 'retitle'], ['past'])}) ((?:the|our|my|his|her|their|its|a|an) [a-z][\\w -]*?) ([A-Z#][\\w.#-]*(?: [A-Z][\\w.-]*)*)$`,
      '',
    ),
    build: ([full = '', , thing = '', name = '']) => [
      {
        subject: thing,
        family: /\bnicknamed\b/.test(full) ? 'nickname' : 'name',
        value: name,
        rule: 'agent-renamed',
        change: /\bre/.test(full),
      },
    ],
  },
  {
    name: 'called',
    examples: [{ text: 'The project is called Atlas.', slot: { subject: 'project', attribute: 'name', value: 'atlas' } }],
    re: new RegExp(`^(.+?) ${BE}(?:been )?(called|named|known as|titled|nicknamed|renamed|rebranded as) (.+)$`, 'i'),
    build: ([, thing = '', verb = '', name = '']) => [
      {
        subject: thing,
        family: verb.toLowerCase() === 'nicknamed' ? 'nickname' : 'name',
        value: name,
        rule: 'called',
        // "Alice has a dog named Rex", "has another sister called Mia": one of several, whose names
        // accumulate; "Alice's dog is called Rex" names the one dog, and a new name replaces it
        ...(INDEFINITE_THING.test(thing) ? { cardinality: 'multi' as const } : {}),
      },
    ],
  },
  {
    name: 'age',
    examples: [
      { text: 'I just turned 35.', slot: { subject: 'user', attribute: 'age', value: '35' } },
      { text: 'I am 34 years old.', slot: { subject: 'user', attribute: 'age', value: '34' } },
    ],
    // "I turned 35", "I'm 35", "Dana is 34 years old": a person's age, one at a time ("turns 10 in March" is a plan)
    re: /^(.+?) (?:am|is|was|turned|has turned|have turned) (\d{1,3})(?: (?:years?|yrs?) old| y\/?o| years of age)?$/i,
    build: ([, who = '', age = '']) => (isPersonLike(who) ? [{ subject: who, family: 'age', value: age, rule: 'age' }] : undefined),
  },
  {
    name: 'goes-by',
    examples: [{ text: 'Robert goes by Bob.', slot: { subject: 'robert', attribute: 'nickname', value: 'bob' } }],
    re: new RegExp(`^(.+?) (?:${verbAlternation(['go'])}) by (.+)$`, 'i'),
    build: ([, who = '', name = '']) => [{ subject: who, family: 'nickname', value: name, rule: 'goes-by' }],
  },
];
