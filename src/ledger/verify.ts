import type { KeyObject } from 'node:crypto';
import { formatZodIssues } from '../zod-issues.js';
import { signatureValid } from './keys.js';
import type { LedgerLines } from './lines.js';
import {
  canonicalJson,
  genesisPrev,
  ledgerFormatVersion,
  ledgerRecordSchema,
  recordHash,
  type LedgerRecord,
} from './record.js';

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
  | 'non-canonical'
  | 'time-regression'
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
  /** The last record is complete but lost its newline (an editor, a crash after the write): it counts. */
  unterminated: boolean;
}

function parseLine(line: string, seq: number): { raw: unknown } | { bad: BadRecord } {
  try {
    return { raw: JSON.parse(line) };
  } catch {
    return { bad: { seq, reason: 'malformed', message: 'the line is not JSON' } };
  }
}

/**
 * One line against the record before it. The line must be the canonical JSON of what it
 * parses to, byte for byte: JSON.parse keeps the last of two equal keys, another reader the
 * first, so a line two readers could read differently is refused.
 */
export function badLine(
  line: string,
  seq: number,
  before: { hash: string; recordedAt: string | null },
): { record: LedgerRecord } | { bad: BadRecord } {
  const parsed = parseLine(line, seq);
  if ('bad' in parsed) return parsed;
  const raw = parsed.raw;
  const version = (raw as { v?: unknown } | null)?.v;
  if (typeof raw === 'object' && raw !== null && version !== ledgerFormatVersion)
    return { bad: { seq, reason: 'unsupported-version', message: `format version ${String(version)} is not known` } };
  const checked = ledgerRecordSchema.safeParse(raw);
  if (!checked.success)
    return { bad: { seq, reason: 'malformed', message: formatZodIssues(checked.error, { limit: 1, root: 'record' }) } };
  const record = checked.data;
  if (record.seq !== seq)
    return { bad: { seq, reason: 'seq-gap', message: `expected seq ${seq}, found ${record.seq}` } };
  if (record.prev !== before.hash)
    return { bad: { seq, reason: 'prev-mismatch', message: "prev is not the previous record's hash" } };
  if (recordHash(record) !== record.hash)
    return { bad: { seq, reason: 'hash-mismatch', message: 'the record does not hash to its hash (edited)' } };
  if (canonicalJson(raw) !== line)
    return {
      bad: {
        seq,
        reason: 'non-canonical',
        message: 'the line is not the canonical JSON of its record (a duplicate key?)',
      },
    };
  if (before.recordedAt !== null && Date.parse(record.recordedAt) < Date.parse(before.recordedAt))
    return {
      bad: {
        seq,
        reason: 'time-regression',
        message: `recordedAt ${record.recordedAt} is earlier than the record before it (${before.recordedAt})`,
      },
    };
  return { record };
}

/** The hash chain alone: every complete line, in order, until the first bad one. */
function checkLinks(ledger: LedgerLines): { records: LedgerRecord[]; firstBad: BadRecord | null } {
  const records: LedgerRecord[] = [];
  const tooLong = new Set(ledger.tooLong ?? []);
  let before: { hash: string; recordedAt: string | null } = { hash: genesisPrev, recordedAt: null };
  for (const [seq, line] of ledger.lines.entries()) {
    if (tooLong.has(seq))
      return { records, firstBad: { seq, reason: 'malformed', message: 'the line is too long to be a ledger record' } };
    const outcome = badLine(line, seq, before);
    if ('bad' in outcome) return { records, firstBad: outcome.bad };
    records.push(outcome.record);
    before = outcome.record;
  }
  return { records, firstBad: null };
}

/**
 * A last line without its newline is torn only when it is not a complete record: one that
 * follows the chain is kept (the next append completes it with a newline).
 */
export function completeTail(ledger: LedgerLines): { ledger: LedgerLines; unterminated: boolean } {
  if (ledger.torn === null) return { ledger, unterminated: false };
  const { records, firstBad } = checkLinks({ ...ledger, torn: null });
  if (firstBad) return { ledger, unterminated: false };
  const last = records[records.length - 1];
  const before = last ? { hash: last.hash, recordedAt: last.recordedAt } : { hash: genesisPrev, recordedAt: null };
  if ('bad' in badLine(ledger.torn, records.length, before)) return { ledger, unterminated: false };
  return { ledger: { ...ledger, lines: [...ledger.lines, ledger.torn], torn: null }, unterminated: true };
}

/** Signed from the first signed record on, by this key; a non-empty chain with no signature fails. */
export function checkSignatures(
  records: readonly LedgerRecord[],
  key: VerifyKey,
  signedFrom: number | null = null,
): { firstBad: BadRecord | null; unsigned: number } {
  const found = records.findIndex((record) => record.sig !== undefined);
  // The home remembers where its key started signing: stripping every signature does not move that.
  const first = signedFrom === null ? found : Math.min(found === -1 ? Infinity : found, signedFrom);
  if (first >= records.length && signedFrom !== null) return { firstBad: null, unsigned: records.length };
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
  given: LedgerLines,
  options: { key?: VerifyKey | null; head?: string | null; signedFrom?: number | null } = {},
): ChainCheck {
  const { ledger, unterminated } = completeTail(given);
  const links = checkLinks(ledger);
  const signatures = options.key
    ? checkSignatures(links.records, options.key, options.signedFrom ?? null)
    : { firstBad: null, unsigned: 0 };
  // A head is only worth checking on a chain that holds together up to the break.
  const head = options.head && !links.firstBad ? checkHead(links.records, options.head) : null;
  return {
    records: links.records,
    lines: ledger.lines.length,
    firstBad: earliest(links.firstBad, signatures.firstBad, head),
    torn: ledger.torn === null ? null : { seq: ledger.lines.length, bytes: Buffer.byteLength(ledger.torn) },
    unsigned: signatures.unsigned,
    unterminated,
  };
}
