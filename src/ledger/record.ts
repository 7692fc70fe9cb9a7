import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import { decisionSchema } from '../result/schemas.js';
import { decisionFieldsOf, tradeFieldMask, type DecisionFieldMask } from '../result/trade-fields.js';

/**
 * One ledger record: a decision as it stood when its run was saved, chained to the
 * record before it. `hash` is SHA-256 (hex) of the record's RFC 8785 canonical JSON
 * without `hash` and `sig`, so any edit, reorder or deletion shows; `sig` (Ed25519
 * over `hash`) shows an insert whose hashes were recomputed by someone without the key.
 */

export const ledgerFormatVersion = 1;

/** `prev` of the first record. */
export const genesisPrev = '0'.repeat(64);

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest');

/**
 * The decision fields a record seals: the trade fields, the target and the horizon, taken
 * from the result's decision schema (types and bounds), so the two cannot drift. Changing
 * this set changes what format 1 seals: old records would stop verifying, so it needs a
 * new `ledgerFormatVersion` (tests/ledger/format.test.ts holds a format-1 ledger).
 */
export const sealedDecisionMask = {
  ...tradeFieldMask,
  takeProfit: true,
  timeHorizon: true,
} as const satisfies DecisionFieldMask;

export const ledgerDecisionSchema = decisionSchema.pick(sealedDecisionMask).strict();

/** Everything a record seals; `hash` and `sig` are computed from it. */
export const ledgerBodySchema = z.strictObject({
  v: z.literal(ledgerFormatVersion),
  seq: z.number().int().min(0),
  prev: hex64,
  recordedAt: z.iso.datetime(),
  runId: z.string().min(1),
  ticker: z.string().min(1),
  asOf: z.string().min(1),
  asOfMode: z.enum(['live', 'historical']),
  status: z.enum(['ok', 'degraded', 'flagged', 'failed', 'interrupted']),
  /** A demo run (synthetic data): such records live in the demo's own ledger. */
  demo: z.boolean(),
  decision: ledgerDecisionSchema,
  /** Agent id → model id. */
  models: z.record(z.string(), z.string()),
  contamination: z.enum(['clean', 'contaminated', 'unknown']),
  autohedgeVersion: z.string().nullable(),
  /** SHA-256 of the canonical market snapshot the desks saw; null when the run had none. */
  inputDigest: hex64.nullable(),
  /** SHA-256 of the saved result.json bytes. */
  resultDigest: hex64,
  keyId: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
});

export const ledgerRecordSchema = ledgerBodySchema.extend({
  hash: hex64,
  sig: z.string().min(1).optional(),
});

export type LedgerBody = z.infer<typeof ledgerBodySchema>;
export type LedgerRecord = z.infer<typeof ledgerRecordSchema>;
export type LedgerDecision = z.infer<typeof ledgerDecisionSchema>;

/** What a record seals of `decision`: the sealed fields, nothing else. */
export function sealedDecisionOf(decision: LedgerDecision): LedgerDecision {
  return decisionFieldsOf(decision, sealedDecisionMask);
}

/** RFC 8785 canonical JSON of a value (throws on NaN, Infinity, lone surrogates). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('this value has no canonical JSON');
  return text;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The hash a record must carry: of its canonical JSON without `hash` and `sig`. */
export function recordHash(record: LedgerBody | LedgerRecord): string {
  const { hash: _hash, sig: _sig, ...body } = record as LedgerRecord;
  return sha256Hex(canonicalJson(body));
}

/** A record's one line in ledger.jsonl (canonical JSON too, so the line is what was hashed plus hash and sig). */
export function recordLine(record: LedgerRecord): string {
  return canonicalJson(record);
}
