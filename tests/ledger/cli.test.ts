import { readFileSync, statSync, writeFileSync, mkdtempSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
import { recordHash, recordLine, type LedgerRecord } from '../../src/ledger/record.js';
import type { SearchProvider } from '../../src/search/types.js';
import { captureIo, type CapturedIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';
import { universeModel } from '../universe/support.js';

/** `autohedge ledger …` as a user runs it, on a home filled by real `analyze` runs. */

const search: SearchProvider = { search: async () => [] };
const now = () => new Date('2026-11-28T12:00:00Z');

async function homeWithRuns(tickers: string[], options: { keygen?: boolean } = {}): Promise<CapturedIo> {
  const io = captureIo();
  if (options.keygen) expect(await runCli(['ledger', 'keygen'], io)).toBe(0);
  for (const ticker of tickers) {
    const code = await runCli(['analyze', ticker, '--quiet'], io, {
      model: universeModel(1),
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(0);
  }
  return io;
}

async function cli(io: CapturedIo, args: string[]) {
  const run = captureIo({ env: io.env, cwd: io.cwd });
  const code = await runCli(args, run);
  return { code, out: run.out(), err: run.err() };
}

function rewrite(io: CapturedIo, edit: (lines: string[]) => string[]): void {
  const file = ledgerPaths(io.env.AUTOHEDGE_HOME!).file;
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  writeFileSync(file, `${edit(lines).join('\n')}\n`);
}

describe('autohedge ledger verify', () => {
  it('exit 0 on an intact chain; --json gives { ok, records }', async () => {
    const io = await homeWithRuns(['AAA', 'BBB', 'CCC']);
    const text = await cli(io, ['ledger', 'verify']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^ledger intact: 3 record\(s\), head [0-9a-f]{64}\n/);
    const json = await cli(io, ['ledger', 'verify', '--json', '--runs']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ ok: true, records: 3 });
    expect(JSON.parse(json.out)).not.toHaveProperty('firstBad');
  });

  it('an edited decision: exit 1 naming the seq and hash-mismatch', async () => {
    const io = await homeWithRuns(['AAA', 'BBB', 'CCC']);
    rewrite(io, (lines) =>
      lines.map((line, index) => (index === 1 ? line.replace('"action":"HOLD"', '"action":"BUY"') : line)),
    );
    const json = await cli(io, ['ledger', 'verify', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({
      ok: false,
      records: 3,
      firstBad: { seq: 1, reason: 'hash-mismatch' },
    });
    const text = await cli(io, ['ledger', 'verify']);
    expect(text.out).toContain('ledger BROKEN at seq 1: hash-mismatch');
  });

  it('an edited result.json fails verify --runs (and only with --runs)', async () => {
    const io = await homeWithRuns(['AAA', 'BBB']);
    const records = readFileSync(ledgerPaths(io.env.AUTOHEDGE_HOME!).file, 'utf8').trimEnd().split('\n');
    const second = JSON.parse(records[1]!) as LedgerRecord;
    const resultFile = path.join(io.env.AUTOHEDGE_HOME!, 'runs', second.runId, 'result.json');
    writeFileSync(resultFile, readFileSync(resultFile, 'utf8').replace('"conviction": 50', '"conviction": 95'));
    expect((await cli(io, ['ledger', 'verify'])).code).toBe(0);
    const runs = await cli(io, ['ledger', 'verify', '--runs', '--json']);
    expect(runs.code).toBe(1);
    expect(JSON.parse(runs.out)).toMatchObject({ firstBad: { seq: 1, reason: 'result-mismatch' } });
  });

  it('--head: a chain truncated after its head was published fails; one that grew after it passes', async () => {
    const io = await homeWithRuns(['AAA', 'BBB', 'CCC']);
    const head = (await cli(io, ['ledger', 'head'])).out.trim();
    expect(head).toMatch(/^[0-9a-f]{64}$/);
    expect(
      await runCli(['analyze', 'DDD', '--quiet'], io, { model: universeModel(1), market: fakeMarket(), search, now }),
    ).toBe(0);
    expect((await cli(io, ['ledger', 'verify', '--head', head])).code).toBe(0);
    rewrite(io, (lines) => lines.slice(0, 2));
    const json = await cli(io, ['ledger', 'verify', '--head', head, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ firstBad: { seq: 2, reason: 'head-mismatch' } });
  });

  it('a recomputed-hash insert passes the bare chain, fails --head, and fails the signature with a key', async () => {
    const io = await homeWithRuns(['AAA', 'BBB', 'CCC'], { keygen: true });
    const head = (await cli(io, ['ledger', 'head'])).out.trim();
    rewrite(io, (lines) => {
      const records = lines.map((line) => JSON.parse(line) as LedgerRecord);
      const forged: LedgerRecord[] = records.slice(0, 1);
      const later = [{ ...records[1]!, runId: 'forged', ticker: 'FAKE' }, ...records.slice(1)];
      for (const record of later) {
        const { sig: _sig, keyId: _keyId, ...body } = record;
        const previous = forged[forged.length - 1]!;
        const next = { ...body, seq: previous.seq + 1, prev: previous.hash } as LedgerRecord;
        forged.push({ ...next, hash: recordHash(next) });
      }
      return forged.map(recordLine);
    });
    const publicKey = ledgerPaths(io.env.AUTOHEDGE_HOME!).publicKey;
    const explicit = await cli(io, ['ledger', 'verify', '--public-key', publicKey, '--json']);
    expect(explicit.code).toBe(1);
    expect(JSON.parse(explicit.out)).toMatchObject({ firstBad: { seq: 1, reason: 'missing-signature' } });
    // The home's own key is used by default.
    expect(JSON.parse((await cli(io, ['ledger', 'verify', '--json'])).out)).toMatchObject({
      firstBad: { seq: 1, reason: 'missing-signature' },
    });
    const exported = path.join(mkdtempSync(path.join(tmpdir(), 'autohedge-forged-')), 'raw.jsonl');
    writeFileSync(exported, readFileSync(ledgerPaths(io.env.AUTOHEDGE_HOME!).file));
    expect(JSON.parse((await cli(io, ['ledger', 'verify', '--ledger', exported, '--json'])).out)).toMatchObject({
      ok: true,
    });
    expect(
      JSON.parse((await cli(io, ['ledger', 'verify', '--ledger', exported, '--head', head, '--json'])).out),
    ).toMatchObject({
      ok: false,
      firstBad: { reason: 'head-mismatch' },
    });
  });

  it('a torn last line is reported as torn (exit 0), and the next saved run repairs it', async () => {
    const io = await homeWithRuns(['AAA']);
    const file = ledgerPaths(io.env.AUTOHEDGE_HOME!).file;
    appendFileSync(file, '{"v":1,"seq":1,"pr');
    const torn = await cli(io, ['ledger', 'verify', '--json']);
    expect(torn.code).toBe(0);
    expect(JSON.parse(torn.out)).toMatchObject({ ok: true, records: 1, torn: { seq: 1, bytes: 18 } });
    expect((await cli(io, ['ledger', 'verify'])).out).toContain('torn last line at seq 1');
    expect(
      await runCli(['analyze', 'BBB', '--quiet'], io, { model: universeModel(1), market: fakeMarket(), search, now }),
    ).toBe(0);
    const repaired = JSON.parse((await cli(io, ['ledger', 'verify', '--json'])).out);
    expect(repaired).toMatchObject({ ok: true, records: 2 });
    expect(repaired).not.toHaveProperty('torn');
  });

  it('usage problems exit 2: no ledger, a bad --head, a missing public key', async () => {
    const io = captureIo();
    expect(await cli(io, ['ledger', 'verify'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('no ledger at'),
    });
    const withRuns = await homeWithRuns(['AAA']);
    expect((await cli(withRuns, ['ledger', 'verify', '--head', 'abc'])).code).toBe(2);
    expect((await cli(withRuns, ['ledger', 'verify', '--public-key', 'missing.pem'])).code).toBe(2);
  });
});

describe('autohedge ledger list / head / export / keygen', () => {
  it('list shows the records oldest first; --json the records themselves', async () => {
    const io = await homeWithRuns(['AAA', 'BBB']);
    const table = await cli(io, ['ledger', 'list']);
    expect(table.code).toBe(0);
    const rows = table.out.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^SEQ\s+RECORDED\s+TICKER\s+ACTION/);
    expect(rows.slice(1).map((row) => row.split(/\s+/).slice(0, 1).concat(row.split(/\s+/)[2]!))).toEqual([
      ['0', 'AAA'],
      ['1', 'BBB'],
    ]);
    const json = JSON.parse((await cli(io, ['ledger', 'list', '--json'])).out) as LedgerRecord[];
    expect(json.map((record) => record.ticker)).toEqual(['AAA', 'BBB']);
    const head = JSON.parse((await cli(io, ['ledger', 'head', '--json'])).out);
    expect(head).toMatchObject({ seq: 1, hash: json[1]!.hash, records: 2 });
  });

  it('export: the ledger and its public key in one file a stranger verifies with no home at all', async () => {
    const io = await homeWithRuns(['AAA', 'BBB'], { keygen: true });
    const exported = path.join(io.cwd, 'my-ledger.jsonl');
    const run = await cli(io, ['ledger', 'export', 'my-ledger.jsonl']);
    expect(run.code).toBe(0);
    expect(run.err).toContain('exported 2 record(s) and public key');
    const stranger = captureIo();
    const verified = await cli(stranger, ['ledger', 'verify', '--ledger', exported, '--json']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.out)).toMatchObject({ ok: true, records: 2, signatures: { keyId: expect.any(String) } });
    // Cut short in transit: the header's count and head say so.
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    writeFileSync(exported, `${lines.slice(0, 2).join('\n')}\n`);
    const cut = await cli(stranger, ['ledger', 'verify', '--ledger', exported, '--json']);
    expect(cut.code).toBe(1);
    expect(JSON.parse(cut.out)).toMatchObject({ firstBad: { seq: 1, reason: 'head-mismatch' } });
  });

  it('export after a keygen that has signed nothing yet: exported without the key, and it verifies', async () => {
    const io = await homeWithRuns(['AAA']);
    expect(await runCli(['ledger', 'keygen'], captureIo({ env: io.env }))).toBe(0);
    const run = await cli(io, ['ledger', 'export', 'early.jsonl']);
    expect(run.err).toContain('has signed no record yet');
    const verified = await cli(captureIo(), [
      'ledger',
      'verify',
      '--ledger',
      path.join(io.cwd, 'early.jsonl'),
      '--json',
    ]);
    expect(JSON.parse(verified.out)).toMatchObject({ ok: true, records: 1, signatures: { keyId: null } });
  });

  it('keygen: a 0600 private key, and a second keygen refuses to overwrite it (exit 2)', async () => {
    const io = captureIo();
    const first = await cli(io, ['ledger', 'keygen']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^[0-9a-f]{16}\n$/);
    const paths = ledgerPaths(io.env.AUTOHEDGE_HOME!);
    expect(statSync(paths.privateKey).mode & 0o777).toBe(0o600);
    const before = readFileSync(paths.privateKey, 'utf8');
    const second = await cli(io, ['ledger', 'keygen']);
    expect(second.code).toBe(2);
    expect(second.err).toContain('already exists');
    expect(readFileSync(paths.privateKey, 'utf8')).toBe(before);
    expect(first.out + first.err).not.toContain('PRIVATE KEY');
  });
});
