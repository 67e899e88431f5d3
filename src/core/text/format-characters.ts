/**
 * Invisible format characters (Unicode category Cf: zero-width space and joiners, soft hyphen, word
 * joiner, BOM, bidi controls): a reader does not see them, so two texts that differ only by them read
 * as the same words.
 */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * `text` without its invisible format characters.
 * @example dropFormatCharacters('Neo\u200Bvim') // 'Neovim'
 */
export function dropFormatCharacters(text: string): string {
  return text.replace(FORMAT_CHARACTERS, '');
}
