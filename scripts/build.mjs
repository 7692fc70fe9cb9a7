#!/usr/bin/env node
// The build, and `prepare` without the wait. `npm install` runs `prepare`, and so does the
// first `npx autohedge …` in a fresh clone (npx links the project and prepares it again):
// a full `tsc` each time costs ~9 s and ~600 MB. So the build records a digest of
// everything it compiles (src/, agents/, the tsconfigs, the TypeScript version) in
// dist/.build-digest, and `node scripts/build.mjs --if-changed` (the `prepare` script) is a
// no-op when dist/ was built from exactly these inputs. A content digest, not mtimes: a
// fresh clone gives every file the same checkout time.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const digestFile = join(root, 'dist', '.build-digest');
const entry = join(root, 'dist', 'src', 'cli', 'main.js');
const require = createRequire(import.meta.url);

function filesUnder(directory) {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** The digest of every input of `tsc -p tsconfig.build.json`, in a stable order. */
export function buildDigest() {
  const inputs = [
    ...filesUnder(join(root, 'src')),
    ...filesUnder(join(root, 'agents')),
    join(root, 'tsconfig.json'),
    join(root, 'tsconfig.build.json'),
  ]
    .map((file) => relative(root, file).split('\\').join('/'))
    .sort();
  const hash = createHash('sha256');
  hash.update(`typescript ${require('typescript/package.json').version}\n`);
  for (const file of inputs) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\n');
  }
  return hash.digest('hex');
}

function upToDate(digest) {
  return existsSync(entry) && existsSync(digestFile) && readFileSync(digestFile, 'utf8').trim() === digest;
}

function build(digest) {
  rmSync(join(root, 'dist', 'src'), { recursive: true, force: true });
  rmSync(join(root, 'dist', 'agents'), { recursive: true, force: true });
  rmSync(digestFile, { force: true });
  const tsc = require.resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) return result.status ?? 1;
  writeFileSync(digestFile, `${digest}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const digest = buildDigest();
  if (process.argv.includes('--if-changed') && upToDate(digest)) {
    console.log('autohedge: dist/ is up to date with src/ (skipping the build)');
  } else {
    process.exitCode = build(digest);
  }
}
