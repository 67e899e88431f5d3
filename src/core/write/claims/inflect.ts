/**
 * Verb inflections for the claim rules: a rule names its verbs by lemma ("like", "own") and the forms it
 * accepts, and the regular forms are generated here ("likes", "liked", "liking"); the irregular ones come
 * from one table. So a new verb is one word in a rule, not five hand-written spellings.
 */

/** The forms a rule may accept. */
export type VerbForm = 'base' | 'third' | 'past' | 'participle' | 'progressive';

/** The usual set: "owns", "own", "owned". */
export const PRESENT_AND_PAST: readonly VerbForm[] = ['third', 'base', 'past'];

/** Past and participle of the irregular verbs the rules use; the rest are regular. */
const IRREGULAR: Readonly<Record<string, { past: string; participle: string }>> = {
  be: { past: 'was', participle: 'been' },
  begin: { past: 'began', participle: 'begun' },
  bring: { past: 'brought', participle: 'brought' },
  build: { past: 'built', participle: 'built' },
  choose: { past: 'chose', participle: 'chosen' },
  come: { past: 'came', participle: 'come' },
  do: { past: 'did', participle: 'done' },
  fly: { past: 'flew', participle: 'flown' },
  get: { past: 'got', participle: 'gotten' },
  give: { past: 'gave', participle: 'given' },
  go: { past: 'went', participle: 'gone' },
  have: { past: 'had', participle: 'had' },
  hold: { past: 'held', participle: 'held' },
  keep: { past: 'kept', participle: 'kept' },
  lead: { past: 'led', participle: 'led' },
  leave: { past: 'left', participle: 'left' },
  make: { past: 'made', participle: 'made' },
  oversee: { past: 'oversaw', participle: 'overseen' },
  meet: { past: 'met', participle: 'met' },
  pay: { past: 'paid', participle: 'paid' },
  put: { past: 'put', participle: 'put' },
  rebuild: { past: 'rebuilt', participle: 'rebuilt' },
  rewrite: { past: 'rewrote', participle: 'rewritten' },
  run: { past: 'ran', participle: 'run' },
  send: { past: 'sent', participle: 'sent' },
  sit: { past: 'sat', participle: 'sat' },
  take: { past: 'took', participle: 'taken' },
  write: { past: 'wrote', participle: 'written' },
};

/** Verbs whose final consonant doubles before -ed and -ing ("stop" → "stopped"). */
const DOUBLING = new Set([
  'ship',
  'stop',
  'drop',
  'plan',
  'swap',
  'chat',
  'pin',
  'sit',
  'run',
  'put',
  'get',
  'set',
  'cut',
  'prefer',
  'refer',
  'commit',
]);

const VOWEL = /[aeiou]/;

function third(lemma: string): string {
  if (lemma === 'have') return 'has';
  if (lemma === 'be') return 'is';
  if (/(?:s|x|z|ch|sh|o)$/.test(lemma)) return `${lemma}es`;
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ies`;
  return `${lemma}s`;
}

function regularStem(lemma: string): string {
  return DOUBLING.has(lemma) ? `${lemma}${lemma.slice(-1)}` : lemma;
}

function regularPast(lemma: string): string {
  if (lemma.endsWith('e')) return `${lemma}d`;
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ied`;
  return `${regularStem(lemma)}ed`;
}

function progressive(lemma: string): string {
  if (lemma === 'be') return 'being';
  if (/ie$/.test(lemma)) return `${lemma.slice(0, -2)}ying`;
  if (/[^e]e$/.test(lemma) && VOWEL.test(lemma.slice(0, -1))) return `${lemma.slice(0, -1)}ing`;
  return `${regularStem(lemma)}ing`;
}

/**
 * One form of a verb given by its lemma; a phrasal verb inflects its first word ("look after" →
 * "looks after").
 * @example
 * inflect('carry', 'third'); // 'carries'
 * inflect('take', 'participle'); // 'taken'
 * inflect('look after', 'past'); // 'looked after'
 */
export function inflect(lemma: string, form: VerbForm): string {
  const [head = '', ...rest] = lemma.split(' ');
  const tail = rest.length > 0 ? ` ${rest.join(' ')}` : '';
  const irregular = IRREGULAR[head];
  let word: string;
  switch (form) {
    case 'base':
      word = head;
      break;
    case 'third':
      word = third(head);
      break;
    case 'past':
      word = irregular?.past ?? regularPast(head);
      break;
    case 'participle':
      word = irregular?.participle ?? regularPast(head);
      break;
    case 'progressive':
      word = progressive(head);
      break;
  }
  return `${word}${tail}`;
}

/**
 * A regular-expression alternation of the given forms of every lemma, each spelling once, in the order
 * of the lemmas (the rules' regular expressions are anchored on the words around the verb, so the order
 * of spellings does not change what matches).
 * @example
 * verbAlternation(['own', 'maintain']); // 'owns|own|owned|maintains|maintain|maintained'
 */
export function verbAlternation(lemmas: readonly string[], forms: readonly VerbForm[] = PRESENT_AND_PAST): string {
  const spellings: string[] = [];
  for (const lemma of lemmas) {
    for (const form of forms) {
      const spelling = inflect(lemma, form);
      if (!spellings.includes(spelling)) spellings.push(spelling);
    }
  }
  return spellings.join('|');
}
