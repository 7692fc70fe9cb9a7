import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyLedgerFile } from '../../src/ledger/check.js';
import { appendRunToLedger } from '../../src/ledger/entry.js';
import { writeKeyPair } from '../../src/ledger/key-files.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
import { sha256Hex } from '../../src/ledger/record.js';
import { ensureBuilt, repoRoot } from '../smoke/support.js';
import { makeResult } from '../support/results.js';

/** Appends on disk: the chain they build, torn tails, keys, and several processes on one home. */

const here = path.dirname(fileURLToPath(import.meta.url));
const home = () => mkdtempSync(path.join(tmpdir(), 'autohedge-ledger-'));

async function append(at: string, runId: string, overrides: Parameters<typeof makeResult>[0] = {}) {
  const result = makeResult({ runId, ...overrides });
  const resultJson = `${JSON.stringify(result, null, 2)}\n`;
  return appendRunToLedger({ home: at, result, resultJson, now: () => new Date('2026-11-27T21:05:00Z') });
}

describe('appendRunToLedger', () => {
  it('records a run with a decision: the issue’s fields, digests of the snapshot and the saved bytes', async () => {
    const at = home();
    const result = makeResult();
    const resultJson = `${JSON.stringify(result, null, 2)}\n`;
    const outcome = await appendRunToLedger({
      home: at,
      result,
      resultJson,
      now: () => new Date('2026-11-27T21:05:00Z'),
    });
    const record = outcome!.record;
    expect(record).toMatchObject({
      v: 1,
      seq: 0,
      prev: '0'.repeat(64),
      recordedAt: '2026-11-27T21:05:00.000Z',
      runId: result.runId,
      ticker: 'ACME',
      asOf: result.asOf,
      asOfMode: 'live',
      status: 'ok',
      demo: false,
      contamination: 'clean',
      resultDigest: sha256Hex(resultJson),
    });
    expect(Object.keys(record.decision).sort()).toEqual(
      ['action', 'conviction', 'entry', 'orderType', 'positionSizePct', 'stopLoss', 'takeProfit', 'timeHorizon'].sort(),
    );
    expect(record.models).toMatchObject({ director: 'gpt-4.1' });
    expect(record.inputDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(record.keyId).toBeUndefined();
    expect(readFileSync(ledgerPaths(at).file, 'utf8').split('\n')).toHaveLength(2);
  });

  it('a run without a decision gets no record; a demo run goes to the demo ledger, marked', async () => {
    const at = home();
    expect(await append(at, 'no-decision', { decision: null, status: 'failed' })).toBeNull();
    const demo = await append(at, 'demo-run', { demo: true });
    expect(demo!.record.demo).toBe(true);
    expect(readFileSync(ledgerPaths(at, { demo: true }).file, 'utf8')).toContain('"runId":"demo-run"');
    expect(() => statSync(ledgerPaths(at).file)).toThrow();
  });

  it('keeps secrets out of the record', async () => {
    const at = home();
    const secret = 'sk-live-secret-0123456789';
    const result = makeResult({ runId: 'secret-run' });
    result.decision = { ...result.decision!, timeHorizon: `3 weeks ${secret}` };
    await appendRunToLedger({ home: at, result, resultJson: '{}', secrets: [secret] });
    expect(readFileSync(ledgerPaths(at).file, 'utf8')).not.toContain(secret);
  });

  it('signs with the home key; verify with it passes; the private key is 0600 and never overwritten', async () => {
    const at = home();
    const paths = ledgerPaths(at);
    const { keyId } = await writeKeyPair(paths);
    expect(statSync(paths.privateKey).mode & 0o777).toBe(0o600);
    await expect(writeKeyPair(paths)).rejects.toThrow(/already exists/);
    const first = await append(at, 'signed-0');
    expect(first!.record).toMatchObject({ keyId });
    expect(first!.record.sig).toMatch(/^[A-Za-z0-9+/]+=*$/);
    await append(at, 'signed-1');
    const { loadPublicKey } = await import('../../src/ledger/key-files.js');
    const report = await verifyLedgerFile({ file: paths.file, key: await loadPublicKey(paths.publicKey, true) });
    expect(report).toMatchObject({ ok: true, records: 2, signatures: { keyId, unsignedBefore: 0 } });
  });

  it('a torn last line: verify says torn (not tampered); the next append moves it aside and continues the chain', async () => {
    const at = home();
    const paths = ledgerPaths(at);
    await append(at, 'run-0');
    await append(at, 'run-1');
    const torn = '{"v":1,"seq":2,"prev":"ab';
    appendFileSync(paths.file, torn);
    const before = await verifyLedgerFile({ file: paths.file });
    expect(before).toMatchObject({ ok: true, records: 2, torn: { seq: 2, bytes: torn.length } });
    const next = await append(at, 'run-2');
    expect(next!.record.seq).toBe(2);
    expect(next!.tornMovedTo).toMatch(/ledger\.torn-\d{8}T\d{6}-\d{3}Z$/);
    expect(readFileSync(next!.tornMovedTo!, 'utf8')).toBe(torn);
    const after = await verifyLedgerFile({ file: paths.file });
    expect(after).toMatchObject({ ok: true, records: 3 });
    expect(after.torn).toBeUndefined();
  });

  it('reads only the tail: a ledger past the first window, and a torn tail longer than it', async () => {
    const at = home();
    const paths = ledgerPaths(at);
    for (let index = 0; index < 120; index += 1) await append(at, `long-${index}`);
    expect(statSync(paths.file).size).toBeGreaterThan(64 * 1024);
    const torn = `{"v":1,"seq":120,"junk":"${'x'.repeat(100_000)}`;
    appendFileSync(paths.file, torn);
    const next = await append(at, 'after-long-tear');
    expect(next!.record.seq).toBe(120);
    expect(readFileSync(next!.tornMovedTo!, 'utf8')).toBe(torn);
    expect(await verifyLedgerFile({ file: paths.file })).toMatchObject({ ok: true, records: 121 });
  });

  it('concurrent appends in one process (a universe at concurrency 8) keep one gap-free chain', async () => {
    const at = home();
    await Promise.all(Array.from({ length: 16 }, (_, index) => append(at, `parallel-${index}`)));
    const report = await verifyLedgerFile({ file: ledgerPaths(at).file });
    expect(report).toMatchObject({ ok: true, records: 16 });
    expect(new Set(report.verified.map((record) => record.runId)).size).toBe(16);
  });

  it('three processes appending 10 records each to one home: 30 records in one valid chain', async () => {
    await ensureBuilt();
    const at = home();
    const resultFile = path.join(at, 'template.json');
    writeFileSync(resultFile, JSON.stringify(makeResult()));
    const entry = path.join(repoRoot, 'dist', 'src', 'ledger', 'index.js');
    const children = ['alpha', 'beta', 'gamma'].map((label) => {
      const child = spawn(
        process.execPath,
        [path.join(here, 'support', 'append-child.mjs'), entry, at, resultFile, '10', label],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise<{ code: number | null; stderr: string }>((resolve) =>
        child.once('exit', (code) => resolve({ code, stderr })),
      );
    });
    for (const exit of await Promise.all(children)) expect(exit).toEqual({ code: 0, stderr: '' });
    const report = await verifyLedgerFile({ file: ledgerPaths(at).file });
    expect(report).toMatchObject({ ok: true, records: 30 });
    expect(report.verified.map((record) => record.seq)).toEqual(Array.from({ length: 30 }, (_, index) => index));
    expect(new Set(report.verified.map((record) => record.runId)).size).toBe(30);
    expect(readdirSync(ledgerPaths(at).directory).filter((name) => name.includes('torn'))).toEqual([]);
  }, 120_000);
});
