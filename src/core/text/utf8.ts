/**
 * Strict UTF-8 decoding for text that arrives as bytes (request bodies, files, stdin): bytes that are
 * not UTF-8 are refused with the offset of the first bad one, never replaced by U+FFFD, which would
 * store other text than was sent without anyone noticing.
 */

/** Decoded text, or where the bytes stop being UTF-8: `invalidAt` is the offset of the first bad byte. */
export type Utf8Decoding = { text: string; invalidAt?: undefined } | { text?: undefined; invalidAt: number };

/**
 * Decodes `bytes` as UTF-8 (a byte order mark at the start is dropped), or says where they are not
 * UTF-8: a byte that starts no character, a character cut short, an overlong or surrogate encoding.
 *
 * @example
 * ```ts
 * decodeUtf8(new TextEncoder().encode('café')); // { text: 'café' }
 * decodeUtf8(Uint8Array.of(0x63, 0x61, 0x66, 0xe9)); // { invalidAt: 3 }
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Decoding {
  try {
    // one decoder for every call: a call without `stream` leaves it as it found it, even when it throws
    strictDecoder ??= new TextDecoder('utf-8', { fatal: true });
    return { text: strictDecoder.decode(bytes) };
  } catch {
    return { invalidAt: invalidUtf8Offset(bytes) };
  }
}

let strictDecoder: InstanceType<typeof TextDecoder> | undefined;

/**
 * What a message shows of an invalid byte: its offset and value, e.g. `byte 3 (0xe9)`. A value in
 * 0x80-0xff on its own is the usual sign of Latin-1 or Windows-1252 text.
 */
export function describeInvalidByte(bytes: Uint8Array, offset: number): string {
  const value = bytes[offset];
  return value === undefined ? `byte ${offset}` : `byte ${offset} (0x${value.toString(16).padStart(2, '0')})`;
}

/** The offset of the first byte of the first ill-formed sequence in `bytes` (Unicode table 3-7), or -1. */
function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const [length, low, high] = sequenceOf(lead);
    if (length === 0 || i + length > bytes.length) return i;
    const second = bytes[i + 1] as number;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k] as number;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

/** The sequence length a lead byte starts and the range its second byte must fall in; length 0: no lead byte. */
function sequenceOf(lead: number): [number, number, number] {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf]; // no overlong forms
  if (lead === 0xed) return [3, 0x80, 0x9f]; // no UTF-16 surrogates
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f]; // nothing past U+10FFFF
  return [0, 0, 0];
}
