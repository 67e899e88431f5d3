// A deterministic synthetic corpus of agent memories (~150 characters each) and of recall queries.
// Memory i of a stream depends only on (seed, i), so the 10k corpus is the first 10k of the 100k one
// and any memory can be regenerated on its own. Pure: no I/O.
import { VOCABULARY as V } from './vocabulary.mjs';

/** Bump when templates, word lists or the length model change: cached corpora are keyed by it. */
export const GENERATOR_VERSION = 1;

/** A small, fast, seedable PRNG (mulberry32) returning floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes a seed and an index into one 32-bit seed (splitmix-style). */
function mix(seed, index) {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The slot fillers a template draws from; proper nouns it uses are collected as entities. */
class Draw {
  constructor(rng) {
    this.rng = rng;
    this.entities = new Set();
  }
  int(min, max) {
    return min + Math.floor(this.rng() * (max - min + 1));
  }
  chance(p) {
    return this.rng() < p;
  }
  pick(list) {
    return list[Math.floor(this.rng() * list.length)];
  }
  entity(list) {
    const value = this.pick(list);
    this.entities.add(value);
    return value;
  }
  first() {
    return this.entity(V.first);
  }
  person() {
    return this.chance(0.3) ? this.full() : this.first();
  }
  full() {
    const name = `${this.pick(V.first)} ${this.pick(V.last)}`;
    this.entities.add(name);
    return name;
  }
  city() {
    return this.entity(V.city);
  }
  country() {
    return this.entity(V.country);
  }
  company() {
    return this.entity(V.company);
  }
  project() {
    return `Project ${this.entity(V.project)}`;
  }
  tool() {
    return this.entity(V.tool);
  }
  pet() {
    return this.entity(V.pet);
  }
  team() {
    return this.pick(V.team);
  }
  tech() {
    return this.pick(V.tech);
  }
  error() {
    return this.pick(V.error);
  }
  object() {
    return this.pick(V.object);
  }
  food() {
    return this.pick(V.food);
  }
  drink() {
    return this.pick(V.drink);
  }
  room() {
    return this.pick(V.room);
  }
  venue() {
    return this.pick(V.venue);
  }
  activity() {
    return this.pick(V.activity);
  }
  animal() {
    return this.pick(V.animal);
  }
  color() {
    return this.pick(V.color);
  }
  material() {
    return this.pick(V.material);
  }
  adj() {
    return this.pick(V.adjective);
  }
  emotion() {
    return this.pick(V.emotion);
  }
  base() {
    return this.pick(V.verbPair)[0];
  }
  past() {
    return this.pick(V.verbPair)[1];
  }
  health() {
    return this.pick(V.health);
  }
  finance() {
    return this.pick(V.finance);
  }
  travel() {
    return this.pick(V.travel);
  }
  work() {
    return this.pick(V.work);
  }
  noun() {
    return this.pick(V.noun);
  }
  weekday() {
    return this.pick(V.weekday);
  }
  when() {
    const r = this.rng();
    if (r < 0.35) return this.pick(V.relative);
    if (r < 0.6) return `on ${this.pick(V.weekday)} ${this.pick(V.timeOfDay)}`;
    if (r < 0.8) return `on ${this.pick(V.month)} ${this.int(1, 28)}`;
    return `at ${this.int(7, 22)}:${String(this.int(0, 59)).padStart(2, '0')}`;
  }
  date() {
    return `${this.pick(V.month)} ${this.int(1, 28)}`;
  }
  version() {
    return `v${this.int(0, 6)}.${this.int(0, 24)}.${this.int(0, 40)}`;
  }
  ticket() {
    return `${this.team().slice(0, 4).toUpperCase()}-${this.int(100, 9999)}`;
  }
  money() {
    return `${this.int(5, 4999)} ${this.pick(['euros', 'dollars', 'pounds', 'francs'])}`;
  }
  minutes() {
    return `${this.int(2, 95)} minutes`;
  }
}

const EPISODIC = 'episodic';
const SEMANTIC = 'semantic';
const PROCEDURAL = 'procedural';

/** Sentence templates: [layer, tags, make(draw)]; about three quarters episodic, like real agent logs. */
const TEMPLATES = [
  [EPISODIC, ['home'], (d) => `${d.person()} ${d.past()} the ${d.adj()} ${d.object()} in the ${d.room()} ${d.when()}`],
  [
    EPISODIC,
    ['home'],
    (d) => `I put the ${d.color()} ${d.object()} on the ${d.material()} shelf in the ${d.room()} so ${d.first()} can find it ${d.when()}`,
  ],
  [
    EPISODIC,
    ['home'],
    (d) => `The ${d.object()} in the ${d.room()} is ${d.adj()} again; ${d.first()} said the ${d.object()} next to it was ${d.adj()} too`,
  ],
  [
    EPISODIC,
    ['pets'],
    (d) =>
      `${d.pet()} the ${d.animal()} knocked the ${d.object()} off the ${d.room()} table ${d.when()} and ${d.first()} was ${d.emotion()}`,
  ],
  [
    EPISODIC,
    ['ops', 'deploy'],
    (d) =>
      `Deployed ${d.tool()} ${d.version()} to ${d.pick(['staging', 'production', 'canary', 'the test cluster'])} ${d.when()}; the ${d.tech()} took ${d.minutes()}`,
  ],
  [
    EPISODIC,
    ['ops', 'incident'],
    (d) => `Incident ${d.ticket()}: ${d.tool()} returned ${d.error()} for ${d.minutes()} after the ${d.tech()} change by ${d.first()}`,
  ],
  [
    EPISODIC,
    ['ops'],
    (d) => `${d.first()} ${d.past()} the ${d.tech()} on ${d.tool()} ${d.when()} because the ${d.tech()} kept hitting ${d.error()}`,
  ],
  [
    EPISODIC,
    ['work'],
    (d) =>
      `In the ${d.work()} ${d.first()} and ${d.first()} ${d.past()} the ${d.tech()} for ${d.project()}; ${d.first()} felt ${d.emotion()} about it`,
  ],
  [EPISODIC, ['work'], (d) => `${d.person()} from the ${d.team()} team ${d.past()} the ${d.work()} for ${d.project()} ${d.when()}`],
  [
    EPISODIC,
    ['work', 'customer'],
    (d) => `Call with ${d.person()} at ${d.company()} about the ${d.work()}: they want the ${d.tech()} fixed before ${d.date()}`,
  ],
  [
    EPISODIC,
    ['travel'],
    (d) =>
      `${d.person()}'s ${d.travel()} to ${d.city()} was ${d.pick(['cancelled', 'delayed by two hours', 'moved to the next day', 'rebooked', 'confirmed'])} ${d.when()}`,
  ],
  [
    EPISODIC,
    ['travel'],
    (d) =>
      `Booked a ${d.travel()} from ${d.city()} to ${d.city()} for ${d.date()}, ${d.money()}, with a ${d.pick(['window seat', 'aisle seat', 'flexible fare', 'late check-out'])}`,
  ],
  [
    EPISODIC,
    ['food', 'social'],
    (d) => `Had ${d.food()} and ${d.drink()} with ${d.person()} at a ${d.adj()} ${d.venue()} in ${d.city()} ${d.when()}`,
  ],
  [EPISODIC, ['food'], (d) => `${d.first()} cooked ${d.food()} with ${d.food()} for dinner ${d.when()}; the ${d.food()} was ${d.adj()}`],
  [
    EPISODIC,
    ['health'],
    (d) => `${d.person()} mentioned a ${d.health()} ${d.when()} and ${d.past()} the ${d.health()} appointment at the ${d.venue()}`,
  ],
  [
    EPISODIC,
    ['finance'],
    (d) => `Paid the ${d.finance()} of ${d.money()} ${d.when()}; ${d.first()} ${d.past()} the ${d.finance()} as well`,
  ],
  [
    EPISODIC,
    ['hobby'],
    (d) => `${d.first()} went ${d.activity()} near the ${d.venue()} in ${d.city()} ${d.when()} and came back ${d.emotion()}`,
  ],
  [
    EPISODIC,
    ['social', 'family'],
    (d) =>
      `My ${d.pick(['sister', 'brother', 'cousin', 'aunt', 'uncle', 'neighbour', 'colleague', 'friend'])} ${d.first()} ${d.past()} the ${d.noun()} for the ${d.noun()} ${d.when()}`,
  ],
  [
    EPISODIC,
    ['robot'],
    (d) =>
      `Robot navigated to the ${d.room()} and grasped the ${d.color()} ${d.object()}; grasp ${d.pick(['succeeded', 'failed', 'slipped', 'succeeded on retry'])} after ${d.int(1, 5)} attempts`,
  ],
  [
    EPISODIC,
    ['robot'],
    (d) =>
      `Goal: bring the ${d.object()} to ${d.first()} in the ${d.room()}. Path blocked by a ${d.object()}, rerouted through the ${d.room()}`,
  ],
  [
    EPISODIC,
    ['tech'],
    (d) =>
      `Ran the ${d.tech()} benchmark on ${d.tool()}: ${d.tech()} went from ${d.int(5, 900)} ms to ${d.int(5, 900)} ms after ${d.first()}'s ${d.tech()} patch`,
  ],
  [
    EPISODIC,
    ['tech'],
    (d) =>
      `${d.first()} asked the agent to ${d.base()} the ${d.tech()} in ${d.tool()} and ${d.base()} the ${d.tech()} before the ${d.work()}`,
  ],
  [
    EPISODIC,
    ['shopping'],
    (d) => `Ordered a ${d.adj()} ${d.color()} ${d.object()} from ${d.company()} for ${d.money()}; delivery expected ${d.when()}`,
  ],
  [
    EPISODIC,
    ['admin'],
    (d) =>
      `Renewed the ${d.pick(['passport', 'visa', 'driving licence', 'lease', 'insurance', 'gym membership'])} for ${d.person()} ${d.when()}; it now runs until ${d.date()}`,
  ],
  [
    EPISODIC,
    ['learning'],
    (d) =>
      `${d.first()} finished the ${d.activity()} course and wants to try ${d.activity()} next, ideally with ${d.first()} in ${d.city()}`,
  ],
  [
    EPISODIC,
    ['home'],
    (d) => `The ${d.object()} broke ${d.when()}; ${d.first()} will ${d.base()} it or buy a ${d.material()} one from ${d.company()}`,
  ],
  [
    EPISODIC,
    ['social'],
    (d) => `${d.person()} is hosting a ${d.noun()} at the ${d.venue()} on ${d.date()} and asked everyone to bring ${d.food()}`,
  ],
  [
    EPISODIC,
    ['work'],
    (d) =>
      `${d.first()} was ${d.emotion()} that the ${d.work()} for ${d.project()} slipped to ${d.date()}; ${d.first()} will ${d.base()} the ${d.work()}`,
  ],
  [
    SEMANTIC,
    ['preference'],
    (d) =>
      `${d.person()} prefers ${d.food()} over ${d.food()}, drinks ${d.drink()} in the ${d.pick(['morning', 'afternoon', 'evening'])} and avoids ${d.food()}`,
  ],
  [
    SEMANTIC,
    ['travel', 'preference'],
    (d) =>
      `${d.person()} always asks for a ${d.pick(['window seat', 'aisle seat', 'quiet room', 'vegetarian meal', 'late check-out'])} and prefers flying with ${d.company()}`,
  ],
  [
    SEMANTIC,
    ['family'],
    (d) =>
      `${d.person()} lives in ${d.city()}, ${d.country()}, has a ${d.animal()} called ${d.pet()} and enjoys ${d.activity()} on weekends`,
  ],
  [SEMANTIC, ['work'], (d) => `${d.person()} works on the ${d.team()} team at ${d.company()} and owns the ${d.tech()} for ${d.project()}`],
  [
    SEMANTIC,
    ['tech'],
    (d) => `The ${d.team()} service runs on ${d.tool()} with ${d.tool()} for the ${d.tech()}; its ${d.tech()} lives in ${d.tool()}`,
  ],
  [
    SEMANTIC,
    ['health'],
    (d) =>
      `${d.person()} has a ${d.health()} and takes ${d.pick(['vitamins', 'medicine', 'an inhaler', 'nothing'])} for it; the next check-up is on ${d.date()}`,
  ],
  [
    SEMANTIC,
    ['finance'],
    (d) => `The ${d.finance()} for ${d.project()} is ${d.money()} per month, paid by ${d.company()} through ${d.finance()}`,
  ],
  [
    SEMANTIC,
    ['home'],
    (d) => `The spare ${d.object()} is kept in the ${d.room()}, behind the ${d.color()} ${d.object()} next to the ${d.object()}`,
  ],
  [
    SEMANTIC,
    ['hobby', 'preference'],
    (d) => `${d.person()} is into ${d.activity()} and ${d.activity()}, dislikes ${d.activity()} and would love to visit ${d.city()}`,
  ],
  [
    PROCEDURAL,
    ['rule'],
    (d) =>
      `Always ask ${d.first()} before you ${d.base()} anything on ${d.tool()} on a ${d.weekday()}; use the ${d.tech()} runbook if ${d.error()} appears`,
  ],
  [
    PROCEDURAL,
    ['rule'],
    (d) =>
      `When ${d.first()} asks about ${d.work()}, ${d.base()} the ${d.tech()} first and answer in ${d.pick(['three bullet points', 'one short paragraph', 'a table'])}`,
  ],
  [
    PROCEDURAL,
    ['rule'],
    (d) =>
      `To ${d.base()} the ${d.object()} in the ${d.room()}, approach from the left, check the ${d.object()} is ${d.adj()}, then ${d.base()} it slowly`,
  ],
];

/** Clauses appended until a memory reaches its target length. */
const CLAUSES = [
  (d) => `because ${d.first()} needed it for the ${d.work()}`,
  (d) => `and ${d.first()} said it should be ${d.adj()} by ${d.weekday()}`,
  (d) => `which made ${d.first()} ${d.emotion()}`,
  (d) => `so we will ${d.base()} the ${d.noun()} ${d.when()}`,
  (d) => `after ${d.first()} ${d.past()} the ${d.object()}`,
  (d) => `while ${d.first()} was in ${d.city()}`,
  (d) => `next time remember to ${d.base()} the ${d.tech()} first`,
  (d) => `according to ${d.person()}`,
  (d) => `and the ${d.noun()} cost ${d.money()}`,
  (d) => `see ticket ${d.ticket()}`,
  (d) => `then ${d.first()} ${d.past()} the ${d.noun()} with ${d.first()}`,
  (d) => `although the ${d.object()} was ${d.adj()}`,
  (d) => `during the ${d.work()} for ${d.project()}`,
  (d) => `near the ${d.venue()}`,
];

const JOINERS = [', ', '; ', ' — ', ', '];

function finish(text, maxChars) {
  let out = text.length > maxChars ? text.slice(0, text.lastIndexOf(' ', maxChars)) : text;
  out = out.replace(/[,;— ]+$/u, '');
  return `${out.charAt(0).toUpperCase()}${out.slice(1)}.`;
}

/**
 * Memory `index` of the stream `seed`: `{ content, layer, tags, entities }`. Lengths centre on ~150
 * characters (about 115 to 190).
 */
export function memoryAt(seed, index) {
  const d = new Draw(mulberry32(mix(seed, index)));
  const [layer, baseTags, make] = d.pick(TEMPLATES);
  const target = 115 + Math.round(((d.rng() + d.rng() + d.rng()) / 3) * 75);
  let text = make(d);
  while (text.length < target - 20) text += d.pick(JOINERS) + d.pick(CLAUSES)(d);
  const content = finish(text, target + 25);
  const tags = d.chance(0.5) ? [baseTags[0]] : d.chance(0.5) ? [...baseTags, d.pick(V.tag)] : [];
  return { content, layer, tags: [...new Set(tags)], entities: [...d.entities] };
}

const STOP = new Set(
  'a an the and or but of to in on at for with by from is was were be been it its this that so then as we i my me'.split(' '),
);

/**
 * Query shapes; `memory` is a stored memory for the kinds derived from one.
 * @type {[string, number, (d: any, memory: any, seed: any) => string][]}
 */
const QUERY_KINDS = [
  [
    'question',
    0.4,
    (d) =>
      d.pick([
        () => `what did ${d.first()} say about the ${d.tech()}?`,
        () => `where did I put the ${d.color()} ${d.object()}?`,
        () => `when is ${d.first()}'s ${d.travel()} to ${d.city()}?`,
        () => `how does ${d.first()} feel about ${d.activity()}?`,
        () => `which ${d.pick(['food', 'drink', 'seat', 'airline'])} does ${d.first()} prefer?`,
        () => `what went wrong with ${d.tool()} during the ${d.tech()}?`,
        () => `who owns the ${d.tech()} for ${d.project()}?`,
        () => `did anyone ${d.base()} the ${d.object()} in the ${d.room()}?`,
        () => `how much was the ${d.finance()} last month?`,
        () => `what are the rules for deploying on ${d.weekday()}?`,
        () => `what happened at the ${d.work()} ${d.pick(V.relative)}?`,
        () => `does ${d.first()} have any ${d.health()} I should know about?`,
      ])(),
  ],
  [
    'keywords',
    0.2,
    (d) =>
      d.pick([
        () => `${d.tool()} ${d.error()}`,
        () => `${d.project()} deadline`,
        () => `${d.first()} ${d.city()}`,
        () => `${d.color()} ${d.object()} ${d.room()}`,
        () => `${d.food()} ${d.drink()}`,
        () => `${d.tech()} ${d.tech()} ${d.tool()}`,
      ])(),
  ],
  [
    'from-memory',
    0.25,
    (d, memory) => {
      const words = memory.content
        .replace(/[^\p{L}\p{N}' ]/gu, ' ')
        .split(/\s+/)
        .filter((w) => w && !STOP.has(w.toLowerCase()));
      const start = d.int(0, Math.max(0, words.length - 6));
      return words
        .slice(start, start + d.int(3, 7))
        .join(' ')
        .toLowerCase();
    },
  ],
  ['long', 0.15, (d, memory, seed) => memoryAt(seed ^ 0x5bd1e995, d.int(0, 1e9)).content],
];

/**
 * `count` recall queries of mixed shapes (questions, keyword lists, fragments of stored memories,
 * whole new ~150-character sentences), drawn from `seed`; stored memories come from the corpus
 * stream `corpusSeed` restricted to indexes below `corpusSize`.
 */
export function makeQueries({ seed, count, corpusSeed, corpusSize }) {
  const queries = [];
  for (let i = 0; i < count; i++) {
    const d = new Draw(mulberry32(mix(seed, i)));
    let r = d.rng();
    let kind = QUERY_KINDS[QUERY_KINDS.length - 1];
    for (const candidate of QUERY_KINDS) {
      if (r < candidate[1]) {
        kind = candidate;
        break;
      }
      r -= candidate[1];
    }
    const memory = memoryAt(corpusSeed, d.int(0, corpusSize - 1));
    queries.push({ kind: kind[0], text: kind[2](d, memory, seed) });
  }
  return queries;
}

const DAY_MS = 86_400_000;
/** The generated corpora's last instant: records are spread over the year before it. */
export const CORPUS_END = Date.parse('2025-06-01T00:00:00Z');

/**
 * The stored record of generated memory `memory` in `scope`, recorded at `at` (0..1) through the
 * corpus year, as every benchmark corpus builds it (bench/corpus-db.mjs, scale-corpus.mjs,
 * pg-corpus.mjs): `rng` draws, in this order, the event time of an episode, the importance, and its
 * fate (2 % superseded, 1 % decayed, so the read path's visibility filter has work to do).
 * `buildRecord` is the store's record factory from dist/. `inactive` says whether the fate took it out.
 * @param {(input: Record<string, unknown>, signals: Record<string, unknown>, recordedAt: number) => Record<string, unknown>} buildRecord
 * @param {() => number} rng
 * @param {{ scope: string, memory: ReturnType<typeof memoryAt>, at: number }} item
 */
export function corpusRecord(buildRecord, rng, { scope, memory, at }) {
  const recordedAt = CORPUS_END - 365 * DAY_MS + Math.floor(at * 365 * DAY_MS);
  /** @type {Record<string, unknown>} */
  const input = { scope, content: memory.content, layer: memory.layer, tags: memory.tags };
  if (memory.layer === 'episodic') input.occurredAt = recordedAt - Math.floor(rng() * 2 * DAY_MS);
  const importance = Math.round(rng() * 100) / 100;
  const record = buildRecord(
    input,
    { entities: memory.entities, importance, emotion: null, salience: importance, surprise: 0.5 },
    recordedAt,
  );
  const fate = rng();
  if (fate < 0.02) Object.assign(record, { status: 'superseded', validTo: recordedAt + DAY_MS, invalidatedAt: recordedAt + DAY_MS });
  else if (fate < 0.03) record.status = 'decayed';
  return { record, inactive: fate < 0.03 };
}
