// `npm run test:fast` leaves out the tests that start other programs (vitest.fast.config.ts,
// its list in tests/support/process-starting.ts).
// A new test file that starts one must join that list, or the fast loop slows down unseen;
// a renamed one must not leave a stale entry behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processStarting } from '../support/process-starting.js';

const root = resolve(import.meta.dirname, '..', '..');

/** What starting a program looks like in a test file: the helpers that do it, or a spawn of node itself. */
const startsAProgram =
  /\b(runBuilt|ensureBuilt|spawnWorker|startRedisServer|runChromium|StdioClientTransport|fixtureServer|opensslTs|startLocalTsa)\b|testkit\/llama-engine|\b(spawn|spawnSync|execFile|execFileSync)\(process\.execPath/;

function testFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

function leftOut(file: string): boolean {
  return processStarting.some((pattern) =>
    pattern.endsWith('/**') ? file.startsWith(pattern.slice(0, -2)) : file === pattern,
  );
}

describe('npm run test:fast', () => {
  it('leaves out every test file that starts another program', () => {
    const self = relative(root, import.meta.filename);
    const starting = testFiles(join(root, 'tests')).filter(
      (file) => file !== self && startsAProgram.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(starting.length).toBeGreaterThan(0);
    expect(starting.filter((file) => !leftOut(file))).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    for (const pattern of processStarting) {
      expect(pattern).toMatch(/^tests\/[\w./-]+(\.test\.ts|\/\*\*)$/);
      expect(existsSync(join(root, pattern.replace(/\/\*\*$/, ''))), pattern).toBe(true);
    }
  });
});
