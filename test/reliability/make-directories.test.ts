/** `makeDirectories`: mkdir -p that makes what is missing, refuses what is in the way, and never spins. */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectories } from '../../src/make-directories.js';
import { tempDir } from '../helpers/temp.js';

describe('makeDirectories', () => {
  const tmp = tempDir('engram-mkdir-');
  afterAll(() => tmp.cleanup());

  it('makes every missing folder with the mode asked, and leaves an existing one alone', () => {
    const deep = join(tmp.dir, 'a', 'b', 'c');
    makeDirectories(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(tmp.dir, 'a')).mode & 0o777).toBe(0o700 & ~process.umask());
    makeDirectories(deep);
    makeDirectories(`${deep}/`);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it('throws EEXIST for a file in the way and ENOTDIR below one, making nothing', () => {
    const file = join(tmp.dir, 'file.txt');
    writeFileSync(file, 'x');
    expect(() => makeDirectories(file)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => makeDirectories(join(file, 'below', 'deeper'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(statSync(file).isFile()).toBe(true);
  });

  it.skipIf(!existsSync('/proc/self'))('throws at once under /proc, where Node’s recursive mkdir retried for ever', () => {
    expect(() => makeDirectories('/proc/engram-test/inner')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
