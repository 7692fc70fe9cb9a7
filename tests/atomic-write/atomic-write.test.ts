import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/atomic-write.js';

/** The one temp-file-then-rename write that run files, cassettes and the market cache share. */

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'autohedge-atomic-write-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes the whole content, replaces an existing file and leaves only the target behind', async () => {
    const target = path.join(directory, 'result.json');
    await writeFile(target, 'old', 'utf8');
    await writeFileAtomic(target, 'new content\n');
    expect(await readFile(target, 'utf8')).toBe('new content\n');
    expect(await readdir(directory)).toEqual(['result.json']);
  });

  it('creates missing parent folders only when asked', async () => {
    const nested = path.join(directory, 'market', 'ACME', '2025-10-10.json');
    await expect(writeFileAtomic(nested, 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFileAtomic(nested, 'x', { createParents: true });
    expect(await readFile(nested, 'utf8')).toBe('x');
  });

  it('applies the requested mode to a new file', async () => {
    const target = path.join(directory, 'cassette.json');
    await writeFileAtomic(target, '{}', { mode: 0o600 });
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('removes its temporary file and rethrows when the final rename fails', async () => {
    // A directory where the file should go makes the rename fail after the temp file was written.
    const blocked = path.join(directory, 'blocked.json');
    await mkdir(blocked);
    await expect(writeFileAtomic(blocked, 'x')).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/),
    });
    expect(await readdir(directory)).toEqual(['blocked.json']);
  });

  it('concurrent writes of one file each use their own temporary file: one whole content wins', async () => {
    const target = path.join(directory, 'same.json');
    const contents = Array.from({ length: 20 }, (_, index) => `writer ${index} `.repeat(1000));
    await Promise.all(contents.map((content) => writeFileAtomic(target, content)));
    expect(contents).toContain(await readFile(target, 'utf8'));
    expect(await readdir(directory)).toEqual(['same.json']);
  });
});
