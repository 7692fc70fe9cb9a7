import type { KeyObject } from 'node:crypto';
import { formatZodIssues } from '../zod-issues.js';
import { signatureValid } from './keys.js';
import type { LedgerLines } from './lines.js';
import { genesisPrev, ledgerFormatVersion, ledgerRecordSchema, recordHash, type LedgerRecord } from './record.js';

/**
 * Checks a ledger, pure: each line is a record of the current format, numbered from 0
 * with no gap, linked to the one before by `prev`, and hashes to its `hash`; with a
 * public key, signed by it from its first signed record on (a chain with no signed
 * record fails); with a published head, still holding it. The first failure is named.
 */

export type BadReason =
  | 'malformed'
  | 'unsupported-version'
  | 'seq-gap'
  | 'prev-mismatch'
  | 'hash-mismatch'
  | 'missing-signature'
  | 'bad-signature'
  | 'head-mismatch'
  | 'result-mismatch'
  | 'result-missing';

export interface BadRecord {
  seq: number;
  reason: BadReason;
  message: string;
}

export interface VerifyKey {
  key: KeyObject;
  keyId: string;
}

export interface ChainCheck {
  /** The records up to the first bad one. */
  records: LedgerRecord[];
  /** The lines in the ledger (complete ones). */
  lines: number;
  firstBad: BadRecord | null;
  torn: { seq: number; bytes: number } | null;
  /** Records before the first one signed, when a key was checked. */
  unsigned: number;
}

function badLine(line: string, seq: number, prev: string): { record: LedgerRecord } | { bad: BadRecord } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { bad: { seq, reason: 'malformed', message: 'the line is not JSON' } };
  }
  const version = (raw as { v?: unknown } | null)?.v;
  if (typeof raw === 'object' && raw !== null && version !== ledgerFormatVersion)
    return { bad: { seq, reason: 'unsupported-version', message: `format version ${String(version)} is not known` } };
  const parsed = ledgerRecordSchema.safeParse(raw);
  if (!parsed.success)
    return { bad: { seq, reason: 'malformed', message: formatZodIssues(parsed.error, { limit: 1, root: 'record' }) } };
  const record = parsed.data;
  if (record.seq !== seq)
    return { bad: { seq, reason: 'seq-gap', message: `expected seq ${seq}, found ${record.seq}` } };
  if (record.prev !== prev)
    return { bad: { seq, reason: 'prev-mismatch', message: "prev is not the previous record's hash" } };
  if (recordHash(record) !== record.hash)
    return { bad: { seq, reason: 'hash-mismatch', message: 'the record does not hash to its hash (edited)' } };
  return { record };
}

/** The hash chain alone: every complete line, in order, until the first bad one. */
function checkLinks(lines: readonly string[]): { records: LedgerRecord[]; firstBad: BadRecord | null } {
  const records: LedgerRecord[] = [];
  let prev = genesisPrev;
  for (const [seq, line] of lines.entries()) {
    const outcome = badLine(line, seq, prev);
    if ('bad' in outcome) return { records, firstBad: outcome.bad };
    records.push(outcome.record);
    prev = outcome.record.hash;
  }
  return { records, firstBad: null };
}

/** Signed from the first signed record on, by this key; a non-empty chain with no signature fails. */
export function checkSignatures(
  records: readonly LedgerRecord[],
  key: VerifyKey,
): { firstBad: BadRecord | null; unsigned: number } {
  const first = records.findIndex((record) => record.sig !== undefined);
  if (first === -1)
    return records.length === 0
      ? { firstBad: null, unsigned: 0 }
      : {
          firstBad: { seq: 0, reason: 'missing-signature', message: `no record is signed by key ${key.keyId}` },
          unsigned: records.length,
        };
  for (const record of records.slice(first)) {
    const seq = record.seq;
    if (record.sig === undefined)
      return {
        firstBad: { seq, reason: 'missing-signature', message: 'unsigned after signed records' },
        unsigned: first,
      };
    if (record.keyId !== key.keyId)
      return {
        firstBad: {
          seq,
          reason: 'bad-signature',
          message: `signed by key ${record.keyId ?? '(none)'}, not ${key.keyId}`,
        },
        unsigned: first,
      };
    if (!signatureValid(record.hash, record.sig, key.key))
      return { firstBad: { seq, reason: 'bad-signature', message: 'the signature does not verify' }, unsigned: first };
  }
  return { firstBad: null, unsigned: first };
}

/** A published head must still be in the chain (records appended after it are fine). */
export function checkHead(records: readonly LedgerRecord[], head: string): BadRecord | null {
  if (records.some((record) => record.hash === head)) return null;
  return {
    seq: records.length,
    reason: 'head-mismatch',
    message: `the published head ${head.slice(0, 16)}… is not in this chain (rewritten or truncated after it was published)`,
  };
}

function earliest(...bad: Array<BadRecord | null>): BadRecord | null {
  return bad.reduce<BadRecord | null>((first, item) => (item && (!first || item.seq < first.seq) ? item : first), null);
}

export function verifyChain(
  ledger: LedgerLines,
  options: { key?: VerifyKey | null; head?: string | null } = {},
): ChainCheck {
  const links = checkLinks(ledger.lines);
  const signatures = options.key ? checkSignatures(links.records, options.key) : { firstBad: null, unsigned: 0 };
  // A head is only worth checking on a chain that holds together up to the break.
  const head = options.head && !links.firstBad ? checkHead(links.records, options.head) : null;
  return {
    records: links.records,
    lines: ledger.lines.length,
    firstBad: earliest(links.firstBad, signatures.firstBad, head),
    torn: ledger.torn === null ? null : { seq: ledger.lines.length, bytes: Buffer.byteLength(ledger.torn) },
    unsigned: signatures.unsigned,
  };
}
