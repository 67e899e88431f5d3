/**
 * Relations with a fixed verb: ownership and leadership, reporting lines, membership, location, storage,
 * destinations, deploy targets, hosting, workplaces and names.
 */
import { isPersonLike } from './noun-phrase.js';
import { BE, type Rule, isActor, startsWithNumber } from './rule-types.js';
import { isTemporal } from './temporal.js';

/** Relation rules, most specific first. */
export const RELATION_RULES: readonly Rule[] = [
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
];
