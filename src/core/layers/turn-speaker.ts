/**
 * The speaker of a conversation turn stored in the usual "Name: text" form, for turns written without
 * `perception.people`: the embedding then names the speaker as a turn written with it does
 * ("perceived: caroline."). With bge-small, that sentence at the end lifts dense-only any@10 on LoCoMo
 * from 0.633 to 0.703 (questions name the person they ask about; the prefix alone weighs too little).
 */
import type { MemoryData } from '../memory.js';
import { normalizeTokens } from '../text/index.js';

/** One to three capitalised words, then a colon and the text: "Caroline: …", "Dr. Lee: …", "Ann Marie: …". */
const SPEAKER = /^\s*(\p{Lu}[\p{L}\p{M}'’.-]{0,30}(?: \p{Lu}[\p{L}\p{M}'’.-]{0,30}){0,2}):\s+\S/u;

/**
 * "perceived: Name." for a turn in speaker form whose data names no people; empty otherwise.
 *
 * @example
 * ```ts
 * speakerLine('Caroline: I went to the support group today.', {}); // 'perceived: caroline.'
 * speakerLine('Note: the build is green.', { perception: { people: ['Ann'] } }); // ''
 * ```
 */
export function speakerLine(content: string, data: MemoryData): string {
  if ((data.perception?.people?.length ?? 0) > 0) return '';
  const name = turnSpeaker(content);
  if (name === undefined) return '';
  // written as renderEpisodeCycle writes perception.people, so both forms embed alike
  const tokens = normalizeTokens(name);
  return `perceived: ${tokens.length > 0 ? tokens.join(' ') : name}.`;
}

/**
 * Who said a turn stored as "Name: text", as written; undefined for text not in that form.
 *
 * @example
 * ```ts
 * turnSpeaker('Ann Marie: see you at 5'); // 'Ann Marie'
 * ```
 */
export function turnSpeaker(content: string): string | undefined {
  return SPEAKER.exec(content)?.[1];
}
