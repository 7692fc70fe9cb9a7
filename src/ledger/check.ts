import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, errorMessage } from '../errors.js';
import { LedgerError } from './errors.js';
import { checkAnchors, type AnchorsCheck, type AnchorVerdict } from './anchor/verify-anchors.js';
import { readAnchorItems, type AnchorItem } from './anchor/store.js';
import { trustedRoots, type TrustedRoot } from './anchor/roots.js';
import { exportedAnchors, parseLedgerLines, type ExportHeader } from './export-file.js';
import { readLedgerLines, type LedgerLines } from './lines.js';
import { loadPublicKey, verifyKeyFromPem } from './key-files.js';
import { readKeyState, type KeyState } from './key-state.js';
import type { LedgerPaths } from './paths.js';
import { sha256Hex, type LedgerRecord } from './record.js';
import { verifyChain, type BadRecord, type ChainCheck, type VerifyKey } from './verify.js';

/**
 * `ledger verify` as a library call: read a ledger (or an export), check its chain, its
 * signatures with the key given (else the export's own), its head against a published one
 * and an export's header, and with `runsHome` every run's result.json against its digest.
 */

export interface VerifyRequest {
  file: string;
  /** An explicit key (`--public-key`); else the export's key; else the home's when `homeKey` is given. */
  key?: VerifyKey | null;
  homeKey?: VerifyKey | null;
  /** The home's memory of its key (key-state.ts): from its seq on, every record must be signed by it. */
  keyState?: KeyState | null;
  head?: string | null;
  /** Check each record's result.json under <runsHome>/runs/. */
  runsHome?: string | null;
  /** The home's anchors directory (an export carries its own anchors). */
  anchorsDirectory?: string | null;
  /** The roots a TSA's chain must reach (none: every token is untrusted). */
  roots?: readonly TrustedRoot[];
}

export interface VerifyReport {
  ok: boolean;
  records: number;
  head: string | null;
  firstBad?: BadRecord;
  torn?: { seq: number; bytes: number };
  /** The last record is complete but had lost its newline: it counts (the next append completes it). */
  unterminated?: boolean;
  /** Which key the signatures were checked with (null: not checked), and how many records came before its first signature. */
  signatures: {
    keyId: string | null;
    unsignedBefore: number;
    /** Where the key came from: given (--public-key), the export's own header, or the home. */
    source?: 'given' | 'export' | 'home';
  };
  exported: { at: string } | null;
  /** The records that verified (not printed by --json). */
  verified: LedgerRecord[];
  /** Each RFC 3161 token, checked. */
  anchors: AnchorVerdict[];
  /** By seq, the earliest valid anchor covering each verified record (not printed as a map). */
  anchoredBy: AnchorsCheck['anchoredBy'];
  /** Records whose recordedAt is later than an anchor covering them: their writer's clock lied. */
  clockLied: AnchorsCheck['clockLied'];
}

/** The ledger's lines, streamed (a line longer than any record is never held whole). */
export async function readLedgerFile(file: string): Promise<LedgerLines> {
  try {
    return await readLedgerLines(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new LedgerError(`no ledger at ${file}`, 'missing');
    throw new LedgerError(`cannot read ${file}: ${errorMessage(error)}`, 'io', { cause: error });
  }
}

function keyFor(request: VerifyRequest, header: ExportHeader | null, ledger: LedgerLines): VerifyKey | null {
  if (request.key) return request.key;
  if (header?.publicKey) return verifyKeyFromPem(header.publicKey, `the public key in ${request.file}`);
  // The home's own key, made after every record so far, has signed nothing yet: nothing to check —
  // unless the home remembers it (then a chain stripped of all signatures fails).
  // (A key given or exported is held to every record: a chain stripped of all signatures fails.)
  const signedAny = ledger.lines.some((line) => line.includes('"sig":')) || (ledger.torn ?? '').includes('"sig":');
  return signedAny || request.keyState ? (request.homeKey ?? null) : null;
}

/** Where the home's remembered key must have signed from (only for that key). */
function signedFrom(request: VerifyRequest, key: VerifyKey | null): number | null {
  const state = request.keyState;
  return state && key && state.keyId === key.keyId ? state.signedFrom : null;
}

/** The header of an export names its head and count: a file cut short in transit shows here. */
function headerProblem(header: ExportHeader | null, check: ChainCheck): BadRecord | null {
  if (!header || check.firstBad) return null;
  const last = check.records[check.records.length - 1];
  if (header.records === check.records.length && header.head === (last?.hash ?? null)) return null;
  return {
    seq: Math.min(header.records, check.records.length),
    reason: 'head-mismatch',
    message: `the export says ${header.records} records ending at ${header.head?.slice(0, 16) ?? 'none'}…, the file holds ${check.records.length}`,
  };
}

export async function verifyLedgerFile(request: VerifyRequest): Promise<VerifyReport> {
  const parsed = parseLedgerLines(await readLedgerFile(request.file));
  if ('problem' in parsed) throw new LedgerError(`${request.file}: ${parsed.problem}`, 'invalid');
  const key = keyFor(request, parsed.header, parsed.ledger);
  const check = verifyChain(parsed.ledger, {
    key,
    head: request.head ?? null,
    signedFrom: signedFrom(request, key),
  });
  const chainBad = check.firstBad ?? headerProblem(parsed.header, check);
  const runsBad = !chainBad && request.runsHome ? await checkRuns(check.records, request.runsHome) : null;
  const firstBad = chainBad ?? runsBad;
  const items: AnchorItem[] = parsed.header
    ? exportedAnchors(parsed.header)
    : request.anchorsDirectory
      ? await readAnchorItems(request.anchorsDirectory)
      : [];
  const anchors = await checkAnchors(items, check.records, request.roots ?? []);
  const anchorsOk = anchors.anchors.every((anchor) => anchor.ok) && anchors.clockLied.length === 0;
  return {
    ok: firstBad === null && anchorsOk,
    anchors: anchors.anchors,
    anchoredBy: anchors.anchoredBy,
    clockLied: anchors.clockLied,
    records: check.lines,
    head: check.records[check.records.length - 1]?.hash ?? null,
    ...(firstBad ? { firstBad } : {}),
    ...(check.torn ? { torn: check.torn } : {}),
    ...(check.unterminated ? { unterminated: true } : {}),
    signatures: {
      keyId: key?.keyId ?? null,
      unsignedBefore: check.unsigned,
      ...(key ? { source: request.key ? 'given' : parsed.header?.publicKey ? 'export' : 'home' } : {}),
    },
    exported: parsed.header ? { at: parsed.header.exportedAt } : null,
    verified: check.records,
  };
}

const runIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Every record's saved result.json still hashes to its resultDigest. */
export async function checkRuns(records: readonly LedgerRecord[], home: string): Promise<BadRecord | null> {
  for (const record of records) {
    const { seq, runId } = record;
    if (!runIdPattern.test(runId) || runId.includes('..'))
      return { seq, reason: 'result-missing', message: `'${runId}' cannot name a run directory` };
    let bytes: Buffer;
    try {
      bytes = await readFile(join(home, 'runs', runId, 'result.json'));
    } catch (error) {
      return {
        seq,
        reason: 'result-missing',
        message: `run ${runId}: result.json cannot be read (${errorCode(error) ?? errorMessage(error)})`,
      };
    }
    if (sha256Hex(bytes) !== record.resultDigest)
      return { seq, reason: 'result-mismatch', message: `run ${runId}: result.json was changed after it was recorded` };
  }
  return null;
}

/** A home's own ledger, with the home's key and its memory of that key. */
export async function verifyHomeLedger(
  paths: LedgerPaths,
  options: Pick<VerifyRequest, 'head' | 'runsHome' | 'roots'> = {},
): Promise<VerifyReport> {
  return verifyLedgerFile({
    file: paths.file,
    homeKey: await loadPublicKey(paths.publicKey, false),
    keyState: await readKeyState(paths),
    anchorsDirectory: paths.anchors,
    ...options,
    roots: options.roots ?? (await trustedRoots(paths.anchors)),
  });
}
