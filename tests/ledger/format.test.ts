import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyLedgerFile } from '../../src/ledger/check.js';
import { recordContentOf } from '../../src/ledger/from-result.js';
import { verifyKeyFromPem } from '../../src/ledger/key-files.js';
import { ledgerDecisionSchema, ledgerRecordSchema, recordLine } from '../../src/ledger/record.js';
import { verifyChain } from '../../src/ledger/verify.js';
import { decisionSchema } from '../../src/result/schemas.js';
import { tradeFieldsSchema } from '../../src/result/trade-fields.js';
import { makeDecision, makeResult } from '../support/results.js';
import { chain, linesOf } from './support.js';

/** The ledger's format: records written before stay verifiable; the sealed decision is the result's schema, not a copy. */

const here = path.dirname(fileURLToPath(import.meta.url));
const formatOne = path.join(here, '../fixtures/ledger/format-1');

describe('a ledger written in format 1', () => {
  // Written by appendRunToLedger before the sealed fields were derived from the decision schema:
  // a BUY with every level, a HOLD with null levels and no size, a SELL limit with a fractional conviction.
  const file = path.join(formatOne, 'ledger.jsonl');
  const key = verifyKeyFromPem(readFileSync(path.join(formatOne, 'signing-key.pub.pem'), 'utf8'), 'the fixture key');

  it('still verifies, every record signed', async () => {
    const report = await verifyLedgerFile({ file, key });
    expect(report.firstBad).toBeUndefined();
    expect(report).toMatchObject({ ok: true, records: 3, signatures: { keyId: key.keyId, unsignedBefore: 0 } });
  });

  it('reads back byte for byte: each line is the canonical JSON of the record the schema parses', () => {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => recordLine(ledgerRecordSchema.parse(JSON.parse(line))))).toEqual(lines);
    expect(lines.map((line) => (JSON.parse(line) as { decision: { action: string } }).decision.action)).toEqual([
      'BUY',
      'HOLD',
      'SELL',
    ]);
  });
});

describe('the sealed decision fields', () => {
  it('are the decision schema’s own fields (the same zod schemas, not a copy): the trade fields, the target and the horizon', () => {
    const sealed = Object.keys(ledgerDecisionSchema.shape);
    expect(sealed.sort()).toEqual([...Object.keys(tradeFieldsSchema.shape), 'takeProfit', 'timeHorizon'].sort());
    for (const field of sealed) {
      expect(ledgerDecisionSchema.shape[field as keyof typeof ledgerDecisionSchema.shape]).toBe(
        decisionSchema.shape[field as keyof typeof decisionSchema.shape],
      );
    }
  });

  it('are what a record of a run seals of its decision: the prose stays out', () => {
    const decision = makeDecision({ action: 'SELL', entry: null, takeProfit: 150 });
    const content = recordContentOf(makeResult({ decision }), '{}', new Date('2026-11-27T21:05:00Z'))!;
    expect(Object.keys(content.decision).sort()).toEqual(Object.keys(ledgerDecisionSchema.shape).sort());
    expect(content.decision).toEqual(ledgerDecisionSchema.parse({ ...content.decision }));
    expect(JSON.stringify(content.decision)).not.toContain(decision.rationale);
  });

  it('hold a record to the decision schema’s bounds: a level the Director could not have sent is malformed', () => {
    const [first] = chain(1);
    const bad = { ...first!, decision: { ...first!.decision, stopLoss: -5 } };
    const check = verifyChain({ lines: linesOf([bad]), torn: null });
    expect(check.firstBad).toMatchObject({ seq: 0, reason: 'malformed' });
    expect(check.firstBad!.message).toMatch(/^decision\.stopLoss: /);
    expect(decisionSchema.shape.stopLoss.safeParse(-5).success).toBe(false);
  });
});
