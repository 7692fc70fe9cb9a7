import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
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
  return (await signedHome()).file;
}

async function signedHome(): Promise<{ io: CapturedIo; file: string }> {
  const io = captureIo();
  expect(await runCli(['ledger', 'keygen'], io)).toBe(0);
  for (const ticker of ['AAA', 'BBB', 'CCC', 'DDD', 'EEE'])
    expect(
      await runCli(['analyze', ticker, '--quiet'], io, { model: universeModel(1), market: fakeMarket(), search, now }),
    ).toBe(0);
  const file = path.join(io.cwd, 'signed.jsonl');
  expect((await cli(io, ['ledger', 'export', file])).code).toBe(0);
  return { io, file };
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

  it('ledger list --ledger reads an export; a key from its own header comes with a reminder (item 33)', async () => {
    const { io, file } = await signedHome();
    const stranger = captureIo();
    const listed = await cli(stranger, ['ledger', 'list', '--ledger', file]);
    expect(listed.code).toBe(0);
    const rows = listed.out.trimEnd().split('\n');
    expect(rows).toHaveLength(6);
    expect(rows.slice(1).map((row) => row.split(/\s+/)[2])).toEqual(['AAA', 'BBB', 'CCC', 'DDD', 'EEE']);
    expect(listed.err).toContain("the public key in the file's own header");
    expect(listed.err).toContain('only as trustworthy as the file');
    const verified = await cli(stranger, ['ledger', 'verify', '--ledger', file]);
    expect(verified.code).toBe(0);
    expect(verified.err).toContain('only as trustworthy as the file');
    // With the owner's key given, there is nothing to remind.
    const publicKey = ledgerPaths(io.env.AUTOHEDGE_HOME!).publicKey;
    const keyed = await cli(stranger, ['ledger', 'list', '--ledger', file, '--public-key', publicKey, '--json']);
    expect(keyed.code).toBe(0);
    expect(JSON.parse(keyed.out)).toHaveLength(5);
    expect(keyed.err).not.toContain('trustworthy');
  });

  it('ledger list --ledger on an edited export lists the records before the break and says where it broke', async () => {
    const file = await signedExport();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    lines[4] = lines[4]!.replace(/"conviction":\d+/, '"conviction":99');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const listed = await cli(captureIo(), ['ledger', 'list', '--ledger', file]);
    expect(listed.code).toBe(1);
    expect(listed.out.trimEnd().split('\n')).toHaveLength(4);
    expect(listed.err).toContain('is broken at seq 3 (hash-mismatch)');
  });
});
