import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyHomeLedger, verifyLedgerFile } from '../../src/ledger/check.js';
import { appendRunToLedger } from '../../src/ledger/entry.js';
import { writeKeyPair } from '../../src/ledger/key-files.js';
import { readKeyState } from '../../src/ledger/key-state.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
import { recordLine, type LedgerRecord } from '../../src/ledger/record.js';
import { sealRecord } from '../../src/ledger/seal.js';
import { verifyChain } from '../../src/ledger/verify.js';
import { makeResult } from '../support/results.js';
import { chain, content, linesOf, textOf } from './support.js';

/** Issue 47, ledger items 1–6 and 13–15: each attack replayed against the ledger. */

const home = () => mkdtempSync(path.join(tmpdir(), 'autohedge-ledger-attack-'));
const at = new Date('2026-11-27T21:05:00Z');

function append(dir: string, runId: string, extra: Partial<Parameters<typeof appendRunToLedger>[0]> = {}) {
  const result = makeResult({ runId });
  return appendRunToLedger({ home: dir, result, resultJson: `${JSON.stringify(result)}\n`, now: () => at, ...extra });
}

function lastRecord(file: string): LedgerRecord {
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as LedgerRecord;
}

/** What another writer does while this one is stalled: take the stale lock and append the next record. */
function otherWriterAppends(file: string, lock: string, release: boolean): void {
  rmdirSync(lock);
  mkdirSync(lock);
  const tip = lastRecord(file);
  const record = sealRecord(content(7, { runId: 'the-other-writer', recordedAt: at.toISOString() }), tip, null);
  appendFileSync(file, `${recordLine(record)}\n`);
  if (release) rmdirSync(lock);
}

describe('item 1: a stalled lock holder never forks the chain', () => {
  it('the lock taken over and a record appended during the stall: the stalled writer rebuilds on the new tip', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'run-0');
    let stalls = 0;
    const outcome = await append(dir, 'stalled', {
      append: {
        beforeWrite: () => {
          if ((stalls += 1) === 1) otherWriterAppends(paths.file, paths.lock, true);
        },
      },
    });
    expect(outcome!.record.seq).toBe(2);
    const report = await verifyLedgerFile({ file: paths.file });
    expect(report).toMatchObject({ ok: true, records: 3 });
    expect(report.verified.map((record) => record.runId)).toEqual(['run-0', 'the-other-writer', 'stalled']);
  });

  it('the new holder still holds the lock: its lock is not removed, and the stalled writer waits for it', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'run-0');
    let theirsSurvived: boolean | null = null;
    let stalls = 0;
    const outcome = await append(dir, 'stalled', {
      append: {
        beforeWrite: () => {
          if ((stalls += 1) > 1) return;
          otherWriterAppends(paths.file, paths.lock, false);
          setTimeout(() => {
            theirsSurvived = existsSync(paths.lock);
            rmdirSync(paths.lock);
          }, 300);
        },
      },
    });
    expect(theirsSurvived).toBe(true);
    expect(outcome!.record.seq).toBe(2);
    expect(await verifyLedgerFile({ file: paths.file })).toMatchObject({ ok: true, records: 3 });
  });

  it('a lock gone stale during the stall is not trusted: the write waits for a lock of its own', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'run-0');
    let stalls = 0;
    await append(dir, 'stalled', {
      append: {
        beforeWrite: () => {
          stalls += 1;
          // The stall: the lock's last refresh is older than the stale limit.
          if (stalls === 1) utimesSync(paths.lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
        },
      },
    });
    expect(stalls).toBe(2);
    expect(await verifyLedgerFile({ file: paths.file })).toMatchObject({ ok: true, records: 2 });
  });
});

/** A disk that takes only half of each write (ENOSPC reported as a short count). */
async function shortWriting(file: string, flags: number): Promise<FileHandle> {
  const handle = await open(file, flags);
  return new Proxy(handle, {
    get(target, property) {
      if (property === 'write')
        return (buffer: Buffer, offset: number, length: number) =>
          target.write(buffer, offset, Math.max(1, Math.floor(length / 2)));
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('item 2: a full disk never leaves half a record', () => {
  it('a short write fails the append and is cut back; the chain stays as it was', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'run-0');
    const size = statSync(paths.file).size;
    await expect(append(dir, 'disk-full', { append: { openFile: shortWriting } })).rejects.toThrow(
      /wrote \d+ of \d+ bytes.*left as it was/,
    );
    expect(statSync(paths.file).size).toBe(size);
    const report = await verifyLedgerFile({ file: paths.file });
    expect(report).toMatchObject({ ok: true, records: 1 });
    expect(report.torn).toBeUndefined();
    expect((await append(dir, 'run-1'))!.record.seq).toBe(1);
  });
});

describe('item 3: a complete last record that lost only its newline is kept', () => {
  it('verify counts it; the next append completes it and continues after it', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'run-0');
    await append(dir, 'run-1');
    const head = lastRecord(paths.file).hash;
    truncateSync(paths.file, statSync(paths.file).size - 1);
    const before = await verifyLedgerFile({ file: paths.file, head });
    expect(before).toMatchObject({ ok: true, records: 2, unterminated: true });
    expect(before.torn).toBeUndefined();
    const next = await append(dir, 'run-2');
    expect(next).toMatchObject({ completedTail: true, tornMovedTo: null, record: { seq: 2, prev: head } });
    expect(readdirSync(paths.directory).filter((name) => name.startsWith('ledger.torn-'))).toEqual([]);
    expect(await verifyLedgerFile({ file: paths.file, head })).toMatchObject({ ok: true, records: 3 });
  });
});

describe('item 4: time never runs backwards along the chain', () => {
  it('verify fails a record older than the one before it', () => {
    const records = chain(2);
    const late = sealRecord(content(2, { recordedAt: '2025-06-01T00:00:00.000Z' }), records[1]!, null);
    expect(verifyChain({ lines: linesOf([...records, late]), torn: null }).firstBad).toMatchObject({
      seq: 2,
      reason: 'time-regression',
    });
  });

  it('a writer whose clock stepped back records the time of the record before, never earlier', async () => {
    const dir = home();
    await append(dir, 'run-0');
    const next = await append(dir, 'run-1', { now: () => new Date('2026-11-27T20:00:00Z') });
    expect(next!.record.recordedAt).toBe(at.toISOString());
    expect(await verifyLedgerFile({ file: ledgerPaths(dir).file })).toMatchObject({ ok: true });
  });
});

describe('item 6: stripping every signature does not switch the checks off', () => {
  it('after the home key signed, an all-unsigned rewrite is missing-signature', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    const { keyId } = await writeKeyPair(paths);
    await append(dir, 'run-0');
    await append(dir, 'run-1');
    expect(await readKeyState(paths)).toEqual({ keyId, signedFrom: 0 });
    // The rewrite without the private key: same content, hashes recomputed, no signature anywhere.
    const signed = readFileSync(paths.file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LedgerRecord);
    const rewritten: LedgerRecord[] = [];
    for (const record of signed) {
      const { v: _v, seq: _seq, prev: _prev, hash: _hash, sig: _sig, keyId: _keyId, ...body } = record;
      rewritten.push(sealRecord({ ...body, runId: `${body.runId}-rewritten` }, rewritten.at(-1) ?? null, null));
    }
    writeFileSync(paths.file, textOf(rewritten));
    expect((await verifyHomeLedger(paths)).firstBad).toMatchObject({ seq: 0, reason: 'missing-signature' });
  });

  it('a key made after records: those stay an unsigned prefix, and an unsigned record after it fails', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'before-key');
    const { runCli } = await import('../../src/cli/run-cli.js');
    const { captureIo } = await import('../support/cli.js');
    const io = captureIo({ env: { AUTOHEDGE_HOME: dir } });
    expect(await runCli(['ledger', 'keygen'], io)).toBe(0);
    expect((await readKeyState(paths))?.signedFrom).toBe(1);
    expect(await verifyHomeLedger(paths)).toMatchObject({ ok: true, records: 1 });
    const tip = lastRecord(paths.file);
    appendFileSync(paths.file, `${recordLine(sealRecord(content(9, { recordedAt: at.toISOString() }), tip, null))}\n`);
    expect((await verifyHomeLedger(paths)).firstBad).toMatchObject({ seq: 1, reason: 'missing-signature' });
  });
});

describe('item 13: a line must be the canonical JSON of its record', () => {
  it('a duplicate "decision" key (another reader keeps the first) is non-canonical', () => {
    const [record] = chain(1);
    const line = recordLine(record!);
    const sell = JSON.stringify({ ...record!.decision, action: 'SELL' });
    const doubled = line.replace('"decision":', `"decision":${sell},"decision":`);
    expect(JSON.parse(doubled)).toEqual(record);
    expect(verifyChain({ lines: [doubled], torn: null }).firstBad).toMatchObject({ seq: 0, reason: 'non-canonical' });
    expect(verifyChain({ lines: [line.replace(':', ': ')], torn: null }).firstBad).toMatchObject({
      reason: 'non-canonical',
    });
  });
});

describe('item 14: the append touches nothing but a ledger', () => {
  it('refuses a ledger.jsonl that is a symlink; the file it points to is unchanged', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    mkdirSync(paths.directory, { recursive: true });
    const notes = path.join(dir, 'notes.txt');
    writeFileSync(notes, 'first line\nmy last line, no newline');
    symlinkSync(notes, paths.file);
    await expect(append(dir, 'run-0')).rejects.toThrow(/not a regular file/);
    expect(readFileSync(notes, 'utf8')).toBe('first line\nmy last line, no newline');
  });

  it('a last complete line that is not a record: the torn tail is not moved', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    mkdirSync(paths.directory, { recursive: true });
    writeFileSync(paths.file, 'not a record\nthe tail');
    await expect(append(dir, 'run-0')).rejects.toThrow(/not a ledger record/);
    expect(readFileSync(paths.file, 'utf8')).toBe('not a record\nthe tail');
  });
});

describe('item 15: a huge junk line is never read whole', () => {
  const junk = 'x'.repeat(3 * 1024 * 1024);

  it('the append refuses a tail over about a megabyte without a record', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'run-0');
    appendFileSync(paths.file, junk);
    await expect(append(dir, 'run-1')).rejects.toThrow(/over \d+ bytes without a record/);
  });

  it('verify streams: a junk line is malformed at its seq, records before it verify', async () => {
    const dir = home();
    const paths = ledgerPaths(dir);
    await append(dir, 'run-0');
    appendFileSync(paths.file, `${junk}\n`);
    const report = await verifyLedgerFile({ file: paths.file });
    expect(report).toMatchObject({ ok: false, records: 2, firstBad: { seq: 1, reason: 'malformed' } });
    expect(report.firstBad!.message).toMatch(/too long/);
  });
});
