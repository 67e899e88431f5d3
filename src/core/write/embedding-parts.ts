/**
 * The texts a record is embedded from. Its vector comes from its whole text (`embeddingText`); a
 * record that says several things ("Hey Mel! I went to the support group yesterday. It was so
 * powerful.") also gets a vector per sentence (`embeddingParts`), which recall uses to re-rank the
 * semantic channel's candidates: a sentence close to the question lifts its record even where the
 * whole turn, averaged over everything it says, is not close. Measured on LoCoMo conversations 1-5 with
 * the dense channel alone (`bench/sentence-vectors.mjs`): any@10 0.742 → 0.779 (the turn's cosine
 * averaged with the best of turn and sentences); on the long technical chats 0.862 → 0.872.
 *
 * Each part is embedded as the whole is: with the record's name and speaker before it and its episode
 * cycle after it, so a part still says who spoke and what the episode was about.
 */
import type { MemoryRecord } from '../memory.js';
import { renderEpisodeCycle } from '../layers/episode-text.js';
import { speakerLine, turnSpeaker } from '../layers/turn-speaker.js';
import { splitSentences } from '../text/sentences.js';
import { isEpisode } from '../record-kinds.js';

/** A sentence of fewer words gets no part of its own ("Hey Mel!", "Thanks so much!"). */
export const PART_MIN_WORDS = 4;
/** At most this many parts a record; a longer text's sentences are grouped in order. */
export const MAX_PARTS = 8;

type EmbeddedFields = Pick<MemoryRecord, 'layer' | 'content' | 'data'>;

/** The text a record is embedded from: its content, prefixed by its name, followed by its episode cycle. */
export function embeddingText(record: EmbeddedFields): string {
  return composeText(record, record.content);
}

/**
 * The texts of a record's part vectors: one per sentence of four words or more when it has two or more
 * such sentences (at most {@link MAX_PARTS}, neighbours grouped); none otherwise.
 *
 * @example
 * ```ts
 * embeddingParts({ layer: 'episodic', content: 'Mel: Hi! I went hiking today. The view was stunning.', data: {} });
 * // ['Mel: I went hiking today.\nperceived: mel.', 'Mel: The view was stunning.\nperceived: mel.']
 * ```
 */
export function embeddingParts(record: EmbeddedFields): string[] {
  const speaker = turnSpeaker(record.content);
  const bodyStart = speaker === undefined ? 0 : record.content.indexOf(':') + 1;
  const prefix = speaker === undefined ? '' : `${speaker}: `;
  const body = record.content.slice(bodyStart);
  const sentences = splitSentences(body)
    .map((span) => body.slice(span.start, span.end))
    .filter((sentence) => sentence.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word)).length >= PART_MIN_WORDS);
  if (sentences.length < 2) return [];
  return groupInOrder(sentences, MAX_PARTS).map((group) => composeText(record, prefix + group.join(' ')));
}

function composeText(record: EmbeddedFields, content: string): string {
  const name = typeof record.data.name === 'string' ? `${record.data.name}: ` : '';
  const cycle = isEpisode(record)
    ? [renderEpisodeCycle(record.data), speakerLine(record.content, record.data)].filter((p) => p !== '').join(' ')
    : '';
  return `${name}${content}${cycle.length > 0 ? `\n${cycle}` : ''}`;
}

/** `items` in at most `groups` runs of neighbours, as even in length as they can be. */
function groupInOrder(items: readonly string[], groups: number): string[][] {
  if (items.length <= groups) return items.map((item) => [item]);
  return Array.from({ length: groups }, (_, g) =>
    items.slice(Math.floor((g * items.length) / groups), Math.floor(((g + 1) * items.length) / groups)),
  );
}
