/**
 * The derived index files beside a database (the HNSW files and their manifests, the lexical index
 * file): their checksum. They are written with `writeFileAtomically` (src/atomic-file.ts).
 */
import * as zlib from 'node:zlib';

let table: Int32Array | undefined;

/** `zlib.crc32` (Node ≥ 20.15), else the same CRC-32 in JavaScript; `value` continues an earlier sum (0 to start). */
export function crc32(data: Uint8Array, value: number): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(data, value);
  table ??= Int32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let crc = ~value;
  for (let i = 0; i < data.length; i++) crc = (table[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return ~crc >>> 0;
}
