import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, lstatSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo, type CapturedIo } from '../support/cli.js';

/**
 * A home as a user has it after the quick start: two demo runs (their demo ledger), the
 * demo evaluation saved (with evaluation.html), a proposed book and a watch cycle, an
 * anchors folder (a JSON anchor of seq 0 and an opaque token), and traps for the server:
 * a secret beside the home, and a watch "cycle" that is a symbolic link out of it.
 */

export interface ViewHome {
  home: string;
  /** A file beside the home that no request may read. */
  secret: string;
  io: () => CapturedIo;
}

async function cli(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const io = captureIo({ env, cwd });
  const code = await runCli(argv, io);
  expect(code, `${argv.join(' ')}: ${io.err()}`).toBe(0);
  return io.out();
}

export async function makeViewHome(): Promise<ViewHome> {
  const root = await mkdtemp(join(tmpdir(), 'autohedge-view-'));
  const home = join(root, 'home');
  mkdirSync(home);
  const env = { AUTOHEDGE_HOME: home, NO_COLOR: '1' };
  const secret = join(root, 'secret.txt');
  writeFileSync(secret, 'the secret beside the home\n');
  for (let run = 0; run < 2; run += 1) await cli(['analyze', 'ACME', '--demo', '--quiet'], env, root);
  await cli(['evaluate', '--demo', '--quiet'], env, root);
  writeFileSync(join(root, 'holdings.csv'), 'ticker,shares\nACME,100\n');
  await cli(['portfolio', '--demo', '--holdings', 'holdings.csv', '--cash', '100000', '--quiet'], env, root);
  writeFileSync(join(root, 'watchlist.txt'), 'ACME\n');
  await cli(
    [
      'watch',
      '--once',
      '--universe',
      'watchlist.txt',
      '--replay',
      join(process.cwd(), 'demo', 'demo.cassette.json'),
      '--quiet',
    ],
    env,
    root,
  );
  const ledger = readFileSync(join(home, 'ledger', 'demo', 'ledger.jsonl'), 'utf8')
    .trim()
    .split('\n');
  const first = JSON.parse(ledger[0]!) as { hash: string };
  const anchors = join(home, 'ledger', 'demo', 'anchors');
  mkdirSync(anchors, { recursive: true });
  writeFileSync(
    join(anchors, '000000.json'),
    JSON.stringify({ seq: 0, head: first.hash, time: '2026-11-28T00:00:00Z' }),
  );
  writeFileSync(join(anchors, '000000.tsr'), Buffer.from([0x30, 0x82, 0x01, 0x00, 0xff]));
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'delta.html'), '<p>outside the home</p>');
  writeFileSync(join(outside, 'delta.json'), '{}');
  symlinkSync(outside, join(home, 'watch', 'escape'));
  return { home, secret, io: () => captureIo({ env, cwd: root }) };
}

/** Every entry under `dir` (files by content, links by target, folders by name), for before/after comparison. */
export function treeDigest(dir: string): Map<string, string> {
  const digests = new Map<string, string>();
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const info = lstatSync(path);
      const key = `${prefix}${name}`;
      if (info.isSymbolicLink()) digests.set(key, `link ${readlinkSync(path)}`);
      else if (info.isDirectory()) {
        digests.set(key, `dir ${info.mode}`);
        walk(path, `${key}/`);
      } else
        digests.set(
          key,
          `${info.mode} ${info.mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`,
        );
    }
  };
  walk(dir, '');
  return digests;
}
