import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZipEntry } from '../../src/embeddings/onnx/models/zip-entry.js';

/** A minimal zip writer (stored or deflated entries), enough to build archives a jar would be. */
function zip(entries: ReadonlyArray<{ name: string; data: Buffer; deflate: boolean }>, comment = ''): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data;
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.deflate ? 8 : 0, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(Buffer.byteLength(comment), 20);
  return Buffer.concat([...locals, directory, end, Buffer.from(comment)]);
}

describe('readZipEntry', () => {
  const onnx = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  const tokenizer = Buffer.from(JSON.stringify({ model: { vocab: { hello: 1 } } }));
  const archive = zip(
    [
      { name: 'META-INF/MANIFEST.MF', data: Buffer.from('Manifest-Version: 1.0\n'), deflate: false },
      { name: 'model-q.onnx', data: onnx, deflate: true },
      { name: 'model-q-tokenizer.json', data: tokenizer, deflate: false },
    ],
    'a trailing archive comment',
  );

  it('reads deflated and stored entries by name', () => {
    expect(readZipEntry(archive, 'model-q.onnx')?.equals(onnx)).toBe(true);
    expect(readZipEntry(archive, 'model-q-tokenizer.json')?.equals(tokenizer)).toBe(true);
  });

  it('answers undefined for a missing entry and throws on something that is not a zip', () => {
    expect(readZipEntry(archive, 'other.onnx')).toBeUndefined();
    expect(() => readZipEntry(Buffer.from('definitely not a zip archive, just text'), 'x')).toThrow(/not a zip archive/);
    expect(() => readZipEntry(Buffer.alloc(0), 'x')).toThrow(/not a zip archive/);
  });
});
