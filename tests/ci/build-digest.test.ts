import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const digestFile = join(repoRoot, 'dist', '.build-digest');

function digestNow(): string {
  return execFileSync(
    process.execPath,
    ['--input-type=module', '-e', "import('./scripts/build.mjs').then((m) => console.log(m.buildDigest()))"],
    { cwd: repoRoot, encoding: 'utf8' },
  ).trim();
}

describe('prepare skips an up-to-date build (scripts/build.mjs)', () => {
  it('the digest of the build inputs is stable from one call to the next', () => {
    const first = digestNow();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(digestNow()).toBe(first);
  });

  it.skipIf(!existsSync(digestFile))(
    'the build recorded the digest of exactly these sources, so `prepare` has nothing to do',
    () => {
      // `npm test` builds first; the digest it wrote is what `prepare --if-changed` compares.
      expect(readFileSync(digestFile, 'utf8').trim()).toBe(digestNow());
      const output = execFileSync(process.execPath, ['scripts/build.mjs', '--if-changed'], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
      expect(output).toContain('dist/ is up to date');
    },
  );
});
