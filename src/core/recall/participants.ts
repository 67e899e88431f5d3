/**
 * Names that do not separate memories. In a conversation between Caroline and Melanie every turn is
 * spoken by one of them and embedded with its speaker's name, so a question naming both ("What have
 * Caroline and Melanie both painted?") puts two names into the query's vector that match every turn
 * alike, and they outweigh the few words that say what is asked. The semantic channel is then better
 * served by the query without those names; the lexical and entity channels keep them (their idf and
 * overlap already weigh a name by how rare it is).
 */
import type { EpisodeHead } from '../ports/store.js';
import { turnSpeaker } from '../layers/turn-speaker.js';
import { contentTerms } from '../text/index.js';

/** How a recall finds a scope's participants: the newest `sample` episodes' speakers. */
export interface ParticipantRule {
  /** Named people who together speak at least this share of the sampled turns are its participants; 0 turns it off. */
  share: number;
  /** Fewer sampled turns with a speaker than this say nothing about who takes part. */
  minTurns: number;
}

/**
 * The query's names (normalised entities) that are participants: each one speaks some of the sampled
 * turns, and together they speak at least `rule.share` of them. Empty when they do not (one of two
 * people, or a person merely mentioned, still separates memories).
 *
 * @example
 * ```ts
 * // 300 sampled episode heads, half "Caroline: …", half "Melanie: …"
 * ubiquitousSpeakers(['caroline', 'melanie'], sample, { share: 0.8, minTurns: 20 }); // ['caroline', 'melanie']
 * ubiquitousSpeakers(['melanie'], sample, { share: 0.8, minTurns: 20 }); // []
 * ```
 */
export function ubiquitousSpeakers(names: readonly string[], sample: readonly EpisodeHead[], rule: ParticipantRule): string[] {
  if (rule.share <= 0 || names.length === 0) return [];
  const wanted = new Set(names);
  const spoken = new Map<string, number>();
  let turns = 0;
  for (const episode of sample) {
    const speaker = speakerOf(episode);
    if (speaker === undefined) continue;
    turns += 1;
    if (wanted.has(speaker)) spoken.set(speaker, (spoken.get(speaker) ?? 0) + 1);
  }
  if (turns < rule.minTurns) return [];
  let covered = 0;
  for (const n of spoken.values()) covered += n;
  return covered / turns >= rule.share ? [...spoken.keys()] : [];
}

/**
 * The query with `names` (normalised, as `extractEntities` gives them) taken out, possessive and all;
 * null when nothing was taken out or no content word would be left.
 *
 * @example
 * ```ts
 * withoutNames("What have Caroline and Melanie's kids both painted?", ['caroline', 'melanie']);
 * // "What have and kids both painted?"
 * ```
 */
export function withoutNames(query: string, names: readonly string[]): string | null {
  let text = query;
  for (const name of names) {
    const words = name
      .split(/\s+/)
      .filter((w) => w.length > 0)
      .map(escapeRegExp);
    if (words.length === 0) continue;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}(?:['’]s)?(?![\\p{L}\\p{N}])`, 'giu');
    text = text.replace(pattern, ' ');
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (text === query.replace(/\s+/g, ' ').trim() || contentTerms(text).length === 0) return null;
  return text;
}

/** Speakers of frozen heads (a store's cached sample, the same objects recall after recall), found once; null: none. */
const speakersOfFrozen = new WeakMap<EpisodeHead, string | null>();

/** The normalised speaker of a turn: its "Name: text" prefix, else its one perceived person. */
function speakerOf(episode: EpisodeHead): string | undefined {
  const known = speakersOfFrozen.get(episode);
  if (known !== undefined) return known ?? undefined;
  const speaker = findSpeaker(episode);
  if (Object.isFrozen(episode)) speakersOfFrozen.set(episode, speaker ?? null);
  return speaker;
}

function findSpeaker(episode: EpisodeHead): string | undefined {
  const name = turnSpeaker(episode.head) ?? (episode.people.length === 1 ? episode.people[0] : undefined);
  // normalised as `extractEntities` normalises a name
  return name === undefined ? undefined : name.trim().replace(/\s+/gu, ' ').toLowerCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
