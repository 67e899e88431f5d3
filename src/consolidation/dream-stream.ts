/**
 * Seeded synthetic streams for the dream phases (recombine, insight, affect) and for phase locking,
 * drawn through the random port: eight weeks of an agent's working sessions (office hours, a Zipf-like
 * vocabulary of projects, services and people, tools that mostly succeed, feelings on some outcomes).
 * A planted stream adds a bridge (two memories three or more weeks apart that share three rare
 * entities in different words), an insight (deploys with a schema migration on orders-db, on Fridays,
 * that fail 7 times of 8), a flashbulb memory; a noise stream is the same without them. The
 * phase-locking stream has a tool whose success follows the hour of day (planted) or not (noise),
 * with the same uneven working hours either way.
 */
import type { RandomSource } from '../core/ports/random.js';
import { seededRandom } from './statistics.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** One generated memory, in the shape `remember` accepts. */
export interface DreamEpisode {
  content: string;
  layer: 'episodic';
  occurredAt: number;
  importance: number;
  entities: string[];
  context: { goal: string; sessionId: string };
  action?: { tool: string };
  outcome?: { success: boolean };
  emotion?: { valence: number; intensity: number; mood?: string[] };
}

/** What a planted stream holds (null parts in a noise stream). */
export interface DreamTruths {
  /** The two bridged memories (indexes into `episodes`) and the entities they share. */
  bridge: { ends: [number, number]; entities: string[] } | null;
  /** The planted insight: its tool, items (concept names), weekday and members (indexes). */
  insight: { tool: string; items: string[]; weekday: string; members: number[] } | null;
  /** A memory with a flashbulb-strength feeling (index). */
  flashbulb: number | null;
}

export interface DreamStream {
  episodes: DreamEpisode[];
  truths: DreamTruths;
}

const PROJECTS = [
  'billing portal',
  'search revamp',
  'mobile app',
  'data lake',
  'auth service',
  'metrics pipeline',
  'admin console',
  'partner api',
  'email digest',
  'cache layer',
];
const SERVICES = [
  'payments-api',
  'users-db',
  'queue-workers',
  'cdn-edge',
  'audit-log',
  'feature-flags',
  'report-builder',
  'geo-index',
  'notifier',
  'image-resizer',
  'ledger-sync',
  'pricing-engine',
];
const PEOPLE = [
  'Amara Okafor',
  'Jonas Weber',
  'Li Wei',
  'Sofia Marquez',
  'Tom Becker',
  'Nadia Haddad',
  'Kenji Sato',
  'Ruth Cohen',
  'Omar Farouk',
  'Elena Petrova',
  'Marco Rossi',
  'Ivy Chen',
];
const TOOLS = ['deploy', 'test', 'review', 'query', 'build'];
const VERBS: Record<string, string[]> = {
  deploy: ['shipped', 'rolled out', 'released'],
  test: ['ran the suite for', 'tested', 'checked'],
  review: ['reviewed the change to', 'looked over', 'read the diff of'],
  query: ['queried', 'pulled numbers from', 'inspected'],
  build: ['built', 'compiled', 'packaged'],
};

/** A Zipf-like pick (rank r has weight 1 / (r + 1)^0.9). */
function zipf<T>(random: RandomSource, items: readonly T[]): T {
  const weights = items.map((_, r) => 1 / (r + 1) ** 0.9);
  let x = random.next() * weights.reduce((s, w) => s + w, 0);
  for (let i = 0; i < items.length; i += 1) {
    x -= weights[i] as number;
    if (x <= 0) return items[i] as T;
  }
  return items[items.length - 1] as T;
}

function pick<T>(random: RandomSource, items: readonly T[]): T {
  return items[Math.floor(random.next() * items.length)] as T;
}

/** A working hour: mostly 9 to 18, sometimes evenings. */
function workingHour(random: RandomSource): number {
  return random.next() < 0.85 ? 9 + random.next() * 9 : 18 + random.next() * 5;
}

/** Generates a dream stream; the same random sequence always gives the same stream. */
export function generateDreamStream(options: {
  random: RandomSource;
  planted: boolean;
  start?: number;
  weeks?: number;
  perSession?: number;
}): DreamStream {
  const { random, planted } = options;
  const start = options.start ?? Date.UTC(2026, 0, 5); // a Monday
  const weeks = options.weeks ?? 8;
  const perSession = options.perSession ?? 6;
  const episodes: DreamEpisode[] = [];
  // sessions on weekdays Monday to Thursday (Fridays are planted)
  for (let w = 0; w < weeks; w += 1) {
    for (const d of [0, 1, 2, 3]) {
      const day = start + (w * 7 + d) * DAY;
      const sessionId = `w${w}d${d}`;
      for (let i = 0; i < perSession; i += 1) {
        const tool = pick(random, TOOLS);
        const project = zipf(random, PROJECTS);
        const entities = [project, zipf(random, SERVICES), ...(random.next() < 0.6 ? [zipf(random, PEOPLE)] : [])];
        const success = random.next() < 0.78;
        const feeling = success
          ? random.next() < 0.15
            ? { valence: 0.6, intensity: 5, mood: ['pleased'] }
            : undefined
          : random.next() < 0.5
            ? { valence: -0.6, intensity: 6, mood: ['frustrated'] }
            : undefined;
        episodes.push({
          content: `${pick(random, VERBS[tool] as string[])} ${entities[1]} for the ${project}${entities[2] !== undefined ? ` with ${entities[2]}` : ''}: ${success ? 'fine' : 'it broke'}`,
          layer: 'episodic',
          occurredAt: Math.round(day + workingHour(random) * HOUR),
          importance: 0.4,
          entities,
          context: { goal: `${tool} ${project}`, sessionId },
          action: { tool },
          outcome: { success },
          ...(feeling !== undefined ? { emotion: feeling } : {}),
        });
      }
    }
  }
  const truths: DreamTruths = { bridge: null, insight: null, flashbulb: null };
  if (planted) {
    // a bridge: two memories at least three weeks apart sharing three rare entities, worded differently
    const shared = ['ledger-7 cluster', 'Priya Raman', 'invoice reconciler'];
    const first = Math.floor(random.next() * 3);
    const gap = 3 + Math.floor(random.next() * (weeks - 4));
    const a = episodes.length;
    episodes.push({
      content: 'Priya Raman flagged that the invoice reconciler stalls whenever the ledger-7 cluster is under load',
      layer: 'episodic',
      occurredAt: start + (first * 7 + 1) * DAY + 11 * HOUR,
      importance: 0.5,
      entities: shared,
      context: { goal: 'triage reconciler stall', sessionId: `w${first}d1` },
    });
    episodes.push({
      content: 'Disk filled up on ledger-7 cluster during the nightly invoice reconciler backfill; paging Priya Raman',
      layer: 'episodic',
      occurredAt: start + ((first + gap) * 7 + 2) * DAY + 15 * HOUR,
      importance: 0.5,
      entities: shared,
      context: { goal: 'handle disk alert', sessionId: `w${first + gap}d2` },
    });
    truths.bridge = { ends: [a, a + 1], entities: shared };
    // an insight: Friday deploys after a schema migration on orders-db fail 7 times of 8
    const members: number[] = [];
    for (let w = 0; w < weeks; w += 1) {
      const success = w === 3;
      members.push(episodes.length);
      episodes.push({
        content: `${pick(random, VERBS.deploy as string[])} the checkout service right after the schema migration on orders-db: ${success ? 'fine' : 'rollback needed'}`,
        layer: 'episodic',
        occurredAt: Math.round(start + (w * 7 + 4) * DAY + (14 + random.next() * 3) * HOUR),
        importance: 0.5,
        entities: ['schema migration', 'orders-db', zipf(random, SERVICES)],
        context: { goal: 'deploy checkout', sessionId: `w${w}d4` },
        action: { tool: 'deploy' },
        outcome: { success },
        ...(success ? {} : { emotion: { valence: -0.7, intensity: 6, mood: ['anxious'] } }),
      });
    }
    truths.insight = { tool: 'deploy', items: ['orders_db', 'schema_migration'], weekday: 'Friday', members };
    // a flashbulb: the outage everyone remembers
    truths.flashbulb = episodes.length;
    episodes.push({
      content: 'Full production outage: payments down for 40 minutes after a bad certificate rotation',
      layer: 'episodic',
      occurredAt: start + 9 * DAY + 10 * HOUR,
      importance: 0.6,
      entities: ['certificate rotation'],
      context: { goal: 'restore payments', sessionId: 'w1d2' },
      emotion: { valence: -0.95, intensity: 9.5, mood: ['panicked'] },
    });
  }
  episodes.sort((x, y) => x.occurredAt - y.occurredAt);
  if (planted) {
    // indexes after sorting
    const indexOf = (content: string) => episodes.findIndex((e) => e.content === content);
    const bridgeContents = ['Priya Raman flagged', 'Disk filled up on ledger-7'];
    truths.bridge = {
      ends: bridgeContents.map((c) => episodes.findIndex((e) => e.content.startsWith(c))) as [number, number],
      entities: truths.bridge?.entities ?? [],
    };
    truths.insight = {
      ...(truths.insight as NonNullable<DreamTruths['insight']>),
      members: episodes.flatMap((e, i) => (e.context.sessionId.endsWith('d4') && e.action?.tool === 'deploy' ? [i] : [])),
    };
    truths.flashbulb = indexOf('Full production outage: payments down for 40 minutes after a bad certificate rotation');
  }
  return { episodes, truths };
}

/** One observation of the phase-locking stream. */
export interface TimedOutcome {
  at: number;
  tool: string;
  success: boolean;
}

/**
 * A tool used at uneven working hours over `days` days; when `planted`, its success follows the hour
 * of day (p = 0.5 + 0.4·cos(2π(h − peakHour)/24)), else it is a flat `baseRate` whatever the hour.
 */
export function generatePhaseLockedStream(options: {
  random: RandomSource;
  planted: boolean;
  n?: number;
  days?: number;
  peakHour?: number;
  baseRate?: number;
  start?: number;
}): { outcomes: TimedOutcome[]; peakHour: number } {
  const { random, planted } = options;
  const n = options.n ?? 120;
  const days = options.days ?? 28;
  const peakHour = options.peakHour ?? 14;
  const base = options.baseRate ?? 0.6;
  const start = options.start ?? Date.UTC(2026, 0, 5);
  const outcomes: TimedOutcome[] = [];
  for (let i = 0; i < n; i += 1) {
    const hour = random.next() < 0.8 ? 8 + random.next() * 11 : random.next() * 24;
    const at = Math.round(start + Math.floor(random.next() * days) * DAY + hour * HOUR);
    const p = planted ? 0.5 + 0.4 * Math.cos((2 * Math.PI * (hour - peakHour)) / 24) : base;
    outcomes.push({ at, tool: 'sync', success: random.next() < p });
  }
  outcomes.sort((a, b) => a.at - b.at);
  return { outcomes, peakHour };
}

/** A random source from a seed, for tests and benchmarks of these streams. */
export function seededRandomSource(seed: number): RandomSource {
  return { next: seededRandom(seed) };
}
