import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, errorMessage } from '../errors.js';
import { LedgerError } from './errors.js';
import { splitLedger } from './lines.js';
import { tornFileName, type LedgerPaths } from './paths.js';
import { ledgerRecordSchema, recordLine, type LedgerRecord } from './record.js';
import type { ChainTip } from './seal.js';

/**
 * One append to a ledger file, serialised across threads and processes by a lock
 * (proper-lockfile: an atomic mkdir, stale after 10 s, so a crashed writer does not
 * block the next one forever). Under the lock: a torn tail left by a crash is moved to
 * ledger.torn-<time>, the last record gives the next seq and prev, and the new record
 * goes in one write of its whole line, flushed to disk before the lock is released.
 */

export interface AppendOutcome {
  record: LedgerRecord;
  /** Where a torn tail was moved, when there was one. */
  tornMovedTo: string | null;
}

const lockOptions = {
  stale: 10_000,
  realpath: false,
  retries: { retries: 400, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true },
};

export async function appendToLedger(
  paths: LedgerPaths,
  build: (tip: ChainTip | null) => LedgerRecord,
  now: () => Date = () => new Date(),
): Promise<AppendOutcome> {
  await mkdir(paths.directory, { recursive: true });
  const { lock } = await import('proper-lockfile');
  let compromised: Error | null = null;
  let release: () => Promise<void>;
  try {
    release = await lock(paths.file, {
      ...lockOptions,
      lockfilePath: paths.lock,
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    throw new LedgerError(`cannot lock ${paths.file}: ${errorMessage(error)}`, 'io', { cause: error });
  }
  try {
    return await appendLocked(paths, build, now, () => compromised);
  } finally {
    await release().catch(() => {});
  }
}

async function appendLocked(
  paths: LedgerPaths,
  build: (tip: ChainTip | null) => LedgerRecord,
  now: () => Date,
  compromised: () => Error | null,
): Promise<AppendOutcome> {
  const handle = await open(paths.file, 'a+');
  try {
    const bytes = await handle.readFile();
    // Bytes, not text: a torn tail may end inside a character.
    const complete = bytes.lastIndexOf(0x0a) + 1;
    const tornMovedTo = complete < bytes.length ? await moveTorn(paths, handle, bytes, complete, now()) : null;
    const record = build(tipOf(splitLedger(bytes.subarray(0, complete).toString('utf8')).lines, paths.file));
    const lost = compromised();
    if (lost) throw new LedgerError(`lost the lock on ${paths.file}: ${lost.message}`);
    await handle.write(`${recordLine(record)}\n`);
    await handle.sync();
    return { record, tornMovedTo };
  } finally {
    await handle.close();
  }
}

/** The last complete line as a chain tip; a last line that is not a record stops the append (verify says why). */
function tipOf(lines: readonly string[], file: string): ChainTip | null {
  const last = lines[lines.length - 1];
  if (last === undefined) return null;
  let parsed;
  try {
    parsed = ledgerRecordSchema.safeParse(JSON.parse(last));
  } catch {
    parsed = null;
  }
  if (!parsed?.success)
    throw new LedgerError(
      `the last line of ${file} is not a ledger record; nothing appended (run \`autohedge ledger verify\`)`,
      'invalid',
    );
  return { seq: parsed.data.seq, hash: parsed.data.hash };
}

/** The torn bytes into a file of their own (never over another), then off the ledger. */
async function moveTorn(
  paths: LedgerPaths,
  handle: FileHandle,
  bytes: Buffer,
  from: number,
  at: Date,
): Promise<string> {
  const base = join(paths.directory, tornFileName(at));
  let target = base;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await writeFile(target, bytes.subarray(from), { flag: 'wx' });
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST' || attempt > 100) throw error;
      target = `${base}-${attempt}`;
    }
  }
  await handle.truncate(from);
  return target;
}
