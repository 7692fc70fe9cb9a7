import { describe, expect, it } from 'vitest';
import { splitLedger } from '../../src/ledger/lines.js';
import { canonicalJson, recordHash, recordLine, type LedgerRecord } from '../../src/ledger/record.js';
import { sealRecord } from '../../src/ledger/seal.js';
import { verifyChain, type BadReason } from '../../src/ledger/verify.js';
import { chain, content, keyPair, linesOf, textOf } from './support.js';

/** The chain checks, pure: every way to tamper with a ledger, and the seq and reason verify names. */

/** An insert by someone without the key: a new record at `at`, every later one renumbered and re-hashed. */
function insertRecomputed(records: readonly LedgerRecord[], at: number): LedgerRecord[] {
  const rebuilt: LedgerRecord[] = records.slice(0, at);
  const later = [
    content(99, { runId: 'forged-after-the-fact', recordedAt: records[at - 1]!.recordedAt }),
    ...records.slice(at).map(bodyOf),
  ];
  for (const item of later) {
    const last = rebuilt[rebuilt.length - 1];
    // Signatures cannot be forged: the forger re-hashes and drops them (or keeps stale ones).
    rebuilt.push(sealRecord(item, last ? { seq: last.seq, hash: last.hash, recordedAt: last.recordedAt } : null, null));
  }
  return rebuilt;
}

function bodyOf(record: LedgerRecord): Parameters<typeof sealRecord>[0] {
  const { v: _v, seq: _seq, prev: _prev, hash: _hash, sig: _sig, keyId: _keyId, ...rest } = record;
  return rest;
}

function edited(lines: string[], index: number, edit: (record: Record<string, unknown>) => void): string[] {
  const record = JSON.parse(lines[index]!) as Record<string, unknown>;
  edit(record);
  return lines.map((line, at) => (at === index ? JSON.stringify(record) : line));
}

const clean = chain(6);
const lines = linesOf(clean);

const cases: Array<{ name: string; lines: string[]; seq: number; reason: BadReason }> = [
  {
    name: 'a decision field edited',
    lines: edited(lines, 2, (record) => ((record.decision as { action: string }).action = 'SELL')),
    seq: 2,
    reason: 'hash-mismatch',
  },
  { name: 'a record deleted', lines: [...lines.slice(0, 3), ...lines.slice(4)], seq: 3, reason: 'seq-gap' },
  {
    name: 'two records swapped',
    lines: [...lines.slice(0, 1), lines[2]!, lines[1]!, ...lines.slice(3)],
    seq: 1,
    reason: 'seq-gap',
  },
  {
    name: 'a record deleted and the rest renumbered',
    lines: linesOf([...clean.slice(0, 3), ...clean.slice(4).map((record) => ({ ...record, seq: record.seq - 1 }))]),
    seq: 3,
    reason: 'prev-mismatch',
  },
  {
    name: 'an edit with its own hash recomputed',
    lines: edited(lines, 4, (record) => {
      record.ticker = 'EDIT';
      record.hash = recordHash(record as LedgerRecord);
    }),
    seq: 5,
    reason: 'prev-mismatch',
  },
  {
    name: 'a line that is not JSON',
    lines: [...lines.slice(0, 2), '{"v":1,', ...lines.slice(3)],
    seq: 2,
    reason: 'malformed',
  },
  {
    name: 'a field smuggled in',
    lines: edited(lines, 1, (record) => (record.apiKey = 'sk-secret')),
    seq: 1,
    reason: 'malformed',
  },
  {
    name: 'an unknown format version',
    lines: edited(lines, 0, (record) => (record.v = 2)),
    seq: 0,
    reason: 'unsupported-version',
  },
];

describe('verifyChain', () => {
  it('a clean chain verifies, first prev is 64 zeros, each prev the hash before', () => {
    const check = verifyChain(splitLedger(textOf(clean)));
    expect(check.firstBad).toBeNull();
    expect(check.records).toHaveLength(6);
    expect(clean[0]!.prev).toBe('0'.repeat(64));
    for (const [index, record] of clean.entries()) {
      expect(record.seq).toBe(index);
      if (index > 0) expect(record.prev).toBe(clean[index - 1]!.hash);
    }
  });

  it.each(cases)('$name → seq $seq, $reason', ({ lines: tampered, seq, reason }) => {
    const check = verifyChain({ lines: tampered, torn: null });
    expect(check.firstBad).toMatchObject({ seq, reason });
  });

  it('the hash is SHA-256 of the RFC 8785 canonical JSON without hash and sig', async () => {
    const { createHash } = await import('node:crypto');
    const { hash: _hash, ...body } = clean[0]!;
    expect(clean[0]!.hash).toBe(createHash('sha256').update(canonicalJson(body)).digest('hex'));
    // Key order does not matter to the hash: canonical JSON sorts keys.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(recordHash(reordered as typeof body)).toBe(clean[0]!.hash);
  });

  it('a truncated tail passes the chain alone, and fails against the head published before it', () => {
    const published = clean[5]!.hash;
    const truncated = { lines: lines.slice(0, 4), torn: null };
    expect(verifyChain(truncated).firstBad).toBeNull();
    expect(verifyChain(truncated, { head: published }).firstBad).toMatchObject({ seq: 4, reason: 'head-mismatch' });
    // Records appended after the published head are no failure.
    expect(verifyChain({ lines, torn: null }, { head: clean[3]!.hash }).firstBad).toBeNull();
  });

  it('an insert with recomputed hashes: invisible to the chain, caught by --head without a key', () => {
    const forged = { lines: linesOf(insertRecomputed(clean, 3)), torn: null };
    expect(verifyChain(forged).firstBad).toBeNull();
    expect(verifyChain(forged, { head: clean[5]!.hash }).firstBad).toMatchObject({ reason: 'head-mismatch', seq: 7 });
  });

  it('an insert with recomputed hashes is caught by the signature when a key is present', () => {
    const { signing, verify } = keyPair();
    const signed = chain(6, signing);
    expect(verifyChain({ lines: linesOf(signed), torn: null }, { key: verify }).firstBad).toBeNull();
    const forged = { lines: linesOf(insertRecomputed(signed, 3)), torn: null };
    expect(verifyChain(forged, { key: verify }).firstBad).toMatchObject({ seq: 3, reason: 'missing-signature' });
    // Keeping the old signatures on re-hashed records does not help the forger.
    const stale = insertRecomputed(signed, 3).map((record, index) =>
      index >= 3 ? { ...record, keyId: signing.keyId, sig: signed[Math.min(index, 5)]!.sig } : record,
    );
    expect(verifyChain({ lines: linesOf(stale), torn: null }, { key: verify }).firstBad).toMatchObject({
      seq: 3,
      reason: 'hash-mismatch',
    });
  });

  it('signatures: another key, a bad signature, and a chain stripped of every signature all fail', () => {
    const { signing, verify } = keyPair();
    const other = keyPair();
    const signed = chain(3, signing);
    expect(verifyChain({ lines: linesOf(signed), torn: null }, { key: other.verify }).firstBad).toMatchObject({
      seq: 0,
      reason: 'bad-signature',
    });
    const flipped = signed.map((record, index) =>
      index === 1 ? { ...record, sig: Buffer.from('x'.repeat(64)).toString('base64') } : record,
    );
    expect(verifyChain({ lines: linesOf(flipped), torn: null }, { key: verify }).firstBad).toMatchObject({
      seq: 1,
      reason: 'bad-signature',
    });
    expect(verifyChain({ lines: linesOf(chain(3)), torn: null }, { key: verify }).firstBad).toMatchObject({
      seq: 0,
      reason: 'missing-signature',
    });
  });

  it('records made before the key count as its unsigned prefix; an unsigned one after a signed one fails', () => {
    const { signing, verify } = keyPair();
    const records: LedgerRecord[] = [];
    for (let index = 0; index < 5; index += 1) {
      const last = records[records.length - 1];
      records.push(sealRecord(content(index), last ?? null, index >= 2 && index !== 4 ? signing : null));
    }
    const check = verifyChain({ lines: linesOf(records), torn: null }, { key: verify });
    expect(check.firstBad).toMatchObject({ seq: 4, reason: 'missing-signature' });
    expect(check.unsigned).toBe(2);
  });

  it('a torn last line is reported as torn, not as tampering', () => {
    const text = `${textOf(clean)}${recordLine(clean[0]!).slice(0, 40)}`;
    const check = verifyChain(splitLedger(text));
    expect(check.firstBad).toBeNull();
    expect(check.torn).toEqual({ seq: 6, bytes: 40 });
  });
});
