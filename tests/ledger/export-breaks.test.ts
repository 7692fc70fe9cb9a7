import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { SearchProvider } from '../../src/search/types.js';
import { captureIo, type CapturedIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';
import { universeModel } from '../universe/support.js';

/** Issue 44 item 6: `ledger verify` on a signed export names the first bad record and the right reason. */

const search: SearchProvider = { search: async () => [] };
const now = () => new Date('2026-11-28T12:00:00Z');

async function cli(io: CapturedIo, args: string[]) {
  const run = captureIo({ env: io.env, cwd: io.cwd });
  const code = await runCli(args, run);
  return { code, out: run.out(), err: run.err() };
}

async function signedExport(): Promise<string> {
  const io = captureIo();
  expect(await runCli(['ledger', 'keygen'], io)).toBe(0);
  for (const ticker of ['AAA', 'BBB', 'CCC', 'DDD', 'EEE'])
    expect(
      await runCli(['analyze', ticker, '--quiet'], io, { model: universeModel(1), market: fakeMarket(), search, now }),
    ).toBe(0);
  const file = path.join(io.cwd, 'signed.jsonl');
  expect((await cli(io, ['ledger', 'export', file])).code).toBe(0);
  return file;
}

describe('ledger verify on a signed export', () => {
  it('an edited record: BROKEN at its seq, hash-mismatch (edited)', async () => {
    const file = await signedExport();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // lines[0] is the header: seq 3 is lines[4].
    lines[4] = lines[4]!.replace(/"conviction":\d+/, '"conviction":99');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const run = await cli(captureIo(), ['ledger', 'verify', '--ledger', file]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^ledger BROKEN at seq 3: hash-mismatch — .*\(edited\)\n/);
    expect(run.out).not.toContain('missing-signature');
  });

  it.each([
    ['whole lines', (text: string) => `${text.trimEnd().split('\n').slice(0, 4).join('\n')}\n`],
    ['mid-line', (text: string) => text.slice(0, Math.floor(text.length * 0.7))],
  ])('a file cut short (%s): head-mismatch', async (_, cut) => {
    const file = await signedExport();
    writeFileSync(file, cut(readFileSync(file, 'utf8')));
    const run = await cli(captureIo(), ['ledger', 'verify', '--ledger', file]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/ledger BROKEN at seq \d: head-mismatch/);
    expect(run.out).not.toContain('missing-signature');
  });
});
