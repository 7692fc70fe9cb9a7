import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { appendRunToLedger } from '../../src/ledger/entry.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
import { captureIo } from '../support/cli.js';
import { makeResult } from '../support/results.js';
import { downTsaUrl, makeTestCa, opensslTs, startLocalTsa, type LocalTsa, type TestCa } from './support/local-tsa.js';

/** Issue 41: RFC 3161 anchors of the ledger's head, against TSAs on 127.0.0.1 built with `openssl ts -reply`. */

if (!opensslTs.ok) console.warn(`skipping the RFC 3161 anchor tests: ${opensslTs.why}`);

async function homeWith(records: number, env: Record<string, string> = {}) {
  const io = captureIo();
  const home = io.env.AUTOHEDGE_HOME!;
  for (let index = 0; index < records; index += 1) {
    const result = makeResult({ runId: `20261127T210000Z-ACME-anchor${index}` });
    await appendRunToLedger({ home, result, resultJson: `${JSON.stringify(result)}\n`, env: { ...io.env, ...env } });
  }
  return home;
}

async function cli(home: string, args: string[], env: Record<string, string> = {}) {
  const io = captureIo({ env: { AUTOHEDGE_HOME: home, NO_COLOR: '1', ...env } });
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

type VerifyJson = {
  ok: boolean;
  anchors: Array<{ seq: number; tsa: string; genTime: string | null; ok: boolean; reason?: string }>;
  recordAnchors: Array<{ seq: number; anchoredBy: { seq: number; genTime: string } | null }>;
};

describe.skipIf(!opensslTs.ok)('ledger anchor and verify', () => {
  let ca: TestCa;
  let other: TestCa;
  let tsa: LocalTsa;
  let untrusted: LocalTsa;
  let down: string;
  beforeAll(async () => {
    [ca, other] = await Promise.all([makeTestCa('Good'), makeTestCa('Other')]);
    [tsa, untrusted] = await Promise.all([startLocalTsa(ca), startLocalTsa(other)]);
    down = await downTsaUrl();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([tsa.close(), untrusted.close()]);
  });

  const tsaFile = () => `${new URL(tsa.url).hostname}-${new URL(tsa.url).port}`;

  it('anchors the head, verifies through pkijs, and through `openssl ts -verify` on the exported files in a fresh home', async () => {
    const home = await homeWith(2);
    const anchored = await cli(home, ['ledger', 'anchor', '--tsa', tsa.url, '--tsa-cert', ca.root]);
    expect(anchored.code, anchored.err).toBe(0);
    const anchors = ledgerPaths(home).anchors;
    expect(readdirSync(anchors).sort()).toEqual([`1.${tsaFile()}.tsr`, '1.json', 'index.jsonl', 'roots']);
    const index = JSON.parse(readFileSync(path.join(anchors, 'index.jsonl'), 'utf8')) as Record<string, unknown>;
    expect(index).toMatchObject({ seq: 1, tsa: tsaFile(), url: tsa.url });
    expect(JSON.parse(readFileSync(path.join(anchors, '1.json'), 'utf8'))).toMatchObject({
      autohedgeAnchor: 1,
      seq: 1,
    });

    const verified = await cli(home, ['ledger', 'verify', '--json']);
    expect(verified.code, verified.out).toBe(0);
    const report = JSON.parse(verified.out) as VerifyJson;
    expect(report.anchors).toEqual([{ seq: 1, tsa: tsaFile(), genTime: index.genTime, ok: true }]);
    expect(report.recordAnchors.map((record) => record.anchoredBy?.seq)).toEqual([1, 1]);
    expect((await cli(home, ['ledger', 'verify'])).out).toContain(
      `anchor seq 1 by ${tsaFile()}: genTime ${String(index.genTime)}`,
    );

    // The stranger: the export, its anchors directory, and openssl alone.
    const out = mkdtempSync(path.join(tmpdir(), 'autohedge-export-'));
    const file = path.join(out, 'ledger.jsonl');
    expect((await cli(home, ['ledger', 'export', file])).code).toBe(0);
    const files = `${file}.anchors`;
    const openssl = execFileSync(
      'openssl',
      [
        'ts',
        '-verify',
        '-in',
        path.join(files, `1.${tsaFile()}.tsr`),
        '-data',
        path.join(files, '1.json'),
        '-CAfile',
        ca.root,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(openssl).toContain('Verification: OK');
    expect(readFileSync(path.join(files, 'roots.pem'), 'utf8')).toContain(readFileSync(ca.root, 'utf8').trim());

    const fresh = mkdtempSync(path.join(tmpdir(), 'autohedge-fresh-'));
    const stranger = await cli(fresh, ['ledger', 'verify', '--ledger', file, '--tsa-cert', ca.root, '--json']);
    expect(stranger.code, stranger.out).toBe(0);
    expect((JSON.parse(stranger.out) as VerifyJson).anchors).toMatchObject([{ seq: 1, ok: true }]);
    // A root shipped inside the file is not trusted by itself: the stranger must choose it.
    const unchosen = await cli(fresh, ['ledger', 'verify', '--ledger', file, '--json']);
    expect(unchosen.code).toBe(1);
    expect((JSON.parse(unchosen.out) as VerifyJson).anchors[0]!.reason).toMatch(/does not chain to a trusted root/);
  });

  it('a token over another head is named', async () => {
    const home = await homeWith(2);
    const foreign = await homeWith(3);
    expect((await cli(foreign, ['ledger', 'anchor', '--tsa', tsa.url, '--tsa-cert', ca.root])).code).toBe(0);
    expect((await cli(home, ['ledger', 'anchor', '--tsa', tsa.url, '--tsa-cert', ca.root])).code).toBe(0);
    // Its own seq 1 anchor replaced by the other ledger's (same seq, another head).
    const from = ledgerPaths(foreign).anchors;
    const to = ledgerPaths(home).anchors;
    rmSync(path.join(to, '1.json'));
    copyFileSync(path.join(from, '2.json'), path.join(to, '1.json'));
    copyFileSync(path.join(from, `2.${tsaFile()}.tsr`), path.join(to, `1.${tsaFile()}.tsr`));
    const verified = await cli(home, ['ledger', 'verify', '--json']);
    expect(verified.code).toBe(1);
    expect((JSON.parse(verified.out) as VerifyJson).anchors[0]!.reason).toMatch(/names seq 2/);
    writeFileSync(
      path.join(to, '1.json'),
      readFileSync(path.join(from, '2.json'), 'utf8').replace('"seq":2', '"seq":1'),
    );
    const rewritten = JSON.parse((await cli(home, ['ledger', 'verify', '--json'])).out) as VerifyJson;
    expect(rewritten.anchors[0]!.reason).toMatch(/not this chain's record 1/);
  });

  it('a corrupted token is named, and the records it covered are no longer anchored', async () => {
    const home = await homeWith(1);
    expect((await cli(home, ['ledger', 'anchor', '--tsa', tsa.url, '--tsa-cert', ca.root])).code).toBe(0);
    const token = path.join(ledgerPaths(home).anchors, `0.${tsaFile()}.tsr`);
    const bytes = readFileSync(token);
    bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff;
    writeFileSync(token, bytes);
    const verified = await cli(home, ['ledger', 'verify', '--json']);
    expect(verified.code).toBe(1);
    const report = JSON.parse(verified.out) as VerifyJson;
    expect(report.anchors[0]).toMatchObject({ seq: 0, ok: false });
    expect(report.recordAnchors[0]!.anchoredBy).toBeNull();
    expect((await cli(home, ['ledger', 'verify'])).out).toMatch(/anchor seq 0 by .*: BAD/);
  });

  it('a TSA whose root is not trusted is refused, by name; exit 1 when no TSA anchored', async () => {
    const home = await homeWith(1);
    const refused = await cli(home, ['ledger', 'anchor', '--tsa', untrusted.url]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /TSA 127\.0\.0\.1-\d+ .* failed: the TSA's certificate does not chain to a trusted root/,
    );
    expect(existsSync(path.join(ledgerPaths(home).anchors, 'index.jsonl'))).toBe(false);
  });

  it('two TSAs with one down: anchored by the other, a warning names the one down; all down: exit 1', async () => {
    const home = await homeWith(1);
    const one = await cli(home, ['ledger', 'anchor', '--tsa', tsa.url, '--tsa', down, '--tsa-cert', ca.root]);
    expect(one.code, one.err).toBe(0);
    expect(one.err).toContain(
      `TSA ${new URL(down).hostname}-${new URL(down).port} (${down}) failed: could not connect (connection refused)`,
    );
    // Again, the head unchanged: the TSA that stamped it before still anchors it; the one down is a warning.
    const again = await cli(home, ['ledger', 'anchor', '--tsa', tsa.url, '--tsa', down, '--tsa-cert', ca.root]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(new RegExp(`^seq 0 [0-9a-f]{64}: ${tsaFile()} \\(anchored before\\)\n$`));
    expect(again.err).toContain('failed: could not connect (connection refused)');
    expect(again.err).not.toContain('no TSA anchored the head');
    const none = await cli(await homeWith(1), ['ledger', 'anchor'], { AUTOHEDGE_TSA_URLS: `${down} ${down}x` });
    expect(none.code).toBe(1);
    expect(none.err).toContain('no TSA anchored the head');
  });

  it('AUTOHEDGE_ANCHOR=1 under --demo (a replay): exit 0, no TSA asked, one line saying the head was not anchored', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-auto-demo-'));
    const before = tsa.requests();
    const env = { AUTOHEDGE_ANCHOR: '1', AUTOHEDGE_TSA_URLS: tsa.url, AUTOHEDGE_ANCHOR_EVERY: '1s' };
    const run = await cli(home, ['analyze', 'ACME', '--demo', '--quiet'], env);
    expect(run.code, run.err).toBe(0);
    expect(tsa.requests()).toBe(before);
    expect(run.err).toContain(
      'autohedge: warning: AUTOHEDGE_ANCHOR=1: a replay sends nothing off this machine, so the head was not anchored (`autohedge ledger anchor --demo` anchors it)',
    );
    expect(existsSync(ledgerPaths(home, { demo: true }).anchors)).toBe(false);
  });

  it('AUTOHEDGE_ANCHOR=1: appends anchor, batched per AUTOHEDGE_ANCHOR_EVERY; all TSAs down never fails the append', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-auto-'));
    const env = {
      AUTOHEDGE_HOME: home,
      AUTOHEDGE_ANCHOR: '1',
      AUTOHEDGE_TSA_URLS: tsa.url,
      AUTOHEDGE_ANCHOR_EVERY: '1h',
    };
    await cli(home, ['ledger', 'head']);
    // The home trusts the test root, as after one `ledger anchor --tsa-cert`.
    const roots = path.join(ledgerPaths(home).anchors, 'roots');
    execFileSync('mkdir', ['-p', roots]);
    copyFileSync(ca.root, path.join(roots, 'test.pem'));
    const before = tsa.requests();
    for (let index = 0; index < 3; index += 1) {
      const result = makeResult({ runId: `20261127T210000Z-ACME-auto${index}` });
      const outcome = await appendRunToLedger({ home, result, resultJson: '{}', env });
      expect(outcome!.notices).toEqual([]);
    }
    expect(tsa.requests() - before).toBe(1);
    const report = JSON.parse((await cli(home, ['ledger', 'verify', '--json'])).out) as VerifyJson;
    expect(report.recordAnchors.map((record) => record.anchoredBy?.seq ?? null)).toEqual([0, null, null]);
    expect((await cli(home, ['ledger', 'verify'])).out).toContain('2 record(s) not yet anchored (seq 1–2');

    const downHome = mkdtempSync(path.join(tmpdir(), 'autohedge-auto-down-'));
    const result = makeResult({ runId: '20261127T210000Z-ACME-autodown' });
    const outcome = await appendRunToLedger({
      home: downHome,
      result,
      resultJson: '{}',
      env: { AUTOHEDGE_ANCHOR: '1', AUTOHEDGE_TSA_URLS: down },
    });
    expect(outcome!.record.seq).toBe(0);
    expect(outcome!.notices.join('\n')).toMatch(/was not anchored: .*failed|not anchored/);
  });

  it('ledger publish --git: each anchored head one line in autohedge-anchors.jsonl, one commit, nothing twice; a broken ledger publishes nothing', async () => {
    const home = await homeWith(2);
    expect((await cli(home, ['ledger', 'anchor', '--tsa', tsa.url, '--tsa-cert', ca.root])).code).toBe(0);
    const repository = mkdtempSync(path.join(tmpdir(), 'autohedge-published-'));
    const gitIn = (...args: string[]) => execFileSync('git', ['-C', repository, ...args], { encoding: 'utf8' });
    gitIn('init', '-q');
    gitIn('config', 'user.email', 'ledger@example.com');
    gitIn('config', 'user.name', 'Ledger Test');

    const published = await cli(home, ['ledger', 'publish', '--git', repository]);
    expect(published.code, published.err).toBe(0);
    expect(published.out).toBe(`git -C ${repository} push\n`);
    const lines = readFileSync(path.join(repository, 'autohedge-anchors.jsonl'), 'utf8').trim().split('\n');
    const head = JSON.parse((await cli(home, ['ledger', 'head', '--json'])).out) as { seq: number; hash: string };
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      { seq: head.seq, hash: head.hash, genTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), tsa: tsaFile() },
    ]);
    expect(gitIn('log', '--format=%s').trim()).toBe('autohedge: 1 anchored ledger head(s)');

    // Published already: nothing appended, no second commit.
    const again = await cli(home, ['ledger', 'publish', '--git', repository]);
    expect(again.code).toBe(0);
    expect(again.err).toContain('no anchored head to publish that is not there already');
    expect(gitIn('rev-list', '--count', 'HEAD').trim()).toBe('1');

    // An edited record: the chain breaks, nothing is published.
    const ledgerFile = ledgerPaths(home).file;
    const records = readFileSync(ledgerFile, 'utf8').split('\n');
    records[1] = records[1]!.replace('"ACME"', '"ACMF"');
    writeFileSync(ledgerFile, records.join('\n'));
    const broken = await cli(home, ['ledger', 'publish', '--git', repository]);
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/the ledger is broken at seq \d+ \(hash-mismatch\); nothing published/);
    expect(gitIn('rev-list', '--count', 'HEAD').trim()).toBe('1');

    const notRepository = mkdtempSync(path.join(tmpdir(), 'autohedge-not-git-'));
    const refused = await cli(home, ['ledger', 'publish', '--git', notRepository]);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/not a git work tree|git rev-parse in .* failed/);
  });
});
