import type { RecordContent } from '../../src/ledger/from-result.js';
import { parseSigningKey, generatePemPair, keyIdOf, parsePublicKey, type SigningKey } from '../../src/ledger/keys.js';
import { recordLine, type LedgerRecord } from '../../src/ledger/record.js';
import { sealRecord } from '../../src/ledger/seal.js';
import type { VerifyKey } from '../../src/ledger/verify.js';

/** Ledger fixtures built in code: record contents, chains of them, keys. */

export function content(index: number, overrides: Partial<RecordContent> = {}): RecordContent {
  return {
    recordedAt: new Date(Date.UTC(2025, 5, 2, 20, index)).toISOString(),
    runId: `20250602T200000Z-ACME-${String(index).padStart(6, '0')}`,
    ticker: 'ACME',
    asOf: '2025-06-02T20:00:00.000Z',
    asOfMode: 'live',
    status: 'ok',
    demo: false,
    decision: {
      action: 'BUY',
      // Within the decision schema's 0–100, as every sealed decision is (record.ts).
      conviction: 60 + (index % 40),
      positionSizePct: 5,
      orderType: 'market',
      entry: null,
      stopLoss: 95,
      takeProfit: 110,
      timeHorizon: '2–6 weeks',
    },
    models: { director: 'gpt-4.1', quant: 'gpt-4.1' },
    contamination: 'clean',
    autohedgeVersion: '0.1.0',
    inputDigest: 'a'.repeat(64),
    resultDigest: 'b'.repeat(64),
    ...overrides,
  };
}

/** `count` records, each chained to the one before, signed when a key is given. */
export function chain(count: number, key: SigningKey | null = null): LedgerRecord[] {
  const records: LedgerRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const last = records[records.length - 1];
    records.push(
      sealRecord(content(index), last ? { seq: last.seq, hash: last.hash, recordedAt: last.recordedAt } : null, key),
    );
  }
  return records;
}

export function linesOf(records: readonly LedgerRecord[]): string[] {
  return records.map(recordLine);
}

export function textOf(records: readonly LedgerRecord[]): string {
  return linesOf(records)
    .map((line) => `${line}\n`)
    .join('');
}

export function keyPair(): { signing: SigningKey; verify: VerifyKey; publicPem: string; privatePem: string } {
  const pair = generatePemPair();
  const key = parsePublicKey(pair.publicPem);
  return { signing: parseSigningKey(pair.privatePem), verify: { key, keyId: keyIdOf(key) }, ...pair };
}
