import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * Reads one file out of a zip archive (a jar) held in memory: stored or deflated entries, no zip64,
 * which is all a model jar needs. Returns undefined when the archive has no entry of that name;
 * throws on an archive it cannot read.
 *
 * @example
 * ```ts
 * const onnx = readZipEntry(await readFile('model.jar'), 'bge-small-en-v1.5-q.onnx');
 * ```
 */
export function readZipEntry(archive: Buffer, entryName: string): Buffer | undefined {
  const end = findEndOfCentralDirectory(archive);
  const count = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (offset + 46 > archive.length || archive.readUInt32LE(offset) !== CENTRAL_HEADER)
      throw new Error('the zip central directory is damaged');
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const size = archive.readUInt32LE(offset + 24);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localOffset = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (name !== entryName) continue;
    if (archive.readUInt32LE(localOffset) !== LOCAL_HEADER) throw new Error(`the zip entry ${name} is damaged`);
    const start = localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    const data = archive.subarray(start, start + compressedSize);
    if (method === 0) return Buffer.from(data);
    if (method === 8) return inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
    throw new Error(`the zip entry ${name} uses compression method ${method}, which is not supported`);
  }
  return undefined;
}

function findEndOfCentralDirectory(archive: Buffer): number {
  // The record sits in the last 22 bytes plus at most a 64 KiB comment.
  const lowest = Math.max(0, archive.length - 22 - 0xffff);
  for (let at = archive.length - 22; at >= lowest; at--) {
    if (archive.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new Error('not a zip archive (no end-of-central-directory record)');
}
