import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, errorMessage } from '../errors.js';
import { LedgerError } from './errors.js';
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
    const tail = await readTail(handle);
    const tornMovedTo = tail.torn ? await moveTorn(paths, handle, tail.torn, tail.complete, now()) : null;
    const record = build(tipOf(tail.lastLine, paths.file));
    const lost = compromised();
    if (lost) throw new LedgerError(`lost the lock on ${paths.file}: ${lost.message}`);
    await handle.write(`${recordLine(record)}\n`);
    await handle.sync();
    return { record, tornMovedTo };
  } finally {
    await handle.close();
  }
}

interface Tail {
  /** The last complete line (without its newline), or null in an empty ledger. */
  lastLine: string | null;
  /** Bytes after the last newline, when a crash left some. */
  torn: Buffer | null;
  /** Where the complete lines end (the offset a torn tail starts at). */
  complete: number;
}

/**
 * The end of the ledger only, so an append costs the same at record 10 and at 100,000:
 * a window from the end, doubled until it holds the last complete line. Bytes, not text:
 * a torn tail may end inside a character.
 */
async function readTail(handle: FileHandle): Promise<Tail> {
  const { size } = await handle.stat();
  for (let window = 64 * 1024; ; window *= 2) {
    const start = Math.max(0, size - window);
    const bytes = Buffer.alloc(size - start);
    await handle.read(bytes, 0, bytes.length, start);
    const end = bytes.lastIndexOf(0x0a);
    const previous = end <= 0 ? -1 : bytes.lastIndexOf(0x0a, end - 1);
    // The last line's start is known once a newline precedes it, or the window reaches the file's start.
    if (start > 0 && previous === -1) continue;
    const torn = end + 1 < bytes.length ? bytes.subarray(end + 1) : null;
    const lastLine = end === -1 ? null : bytes.subarray(previous + 1, end).toString('utf8');
    return { lastLine, torn, complete: start + end + 1 };
  }
}

/** The last complete line as a chain tip; a last line that is not a record stops the append (verify says why). */
function tipOf(last: string | null, file: string): ChainTip | null {
  if (last === null) return null;
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
async function moveTorn(paths: LedgerPaths, handle: FileHandle, torn: Buffer, from: number, at: Date): Promise<string> {
  const base = join(paths.directory, tornFileName(at));
  let target = base;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await writeFile(target, torn, { flag: 'wx' });
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST' || attempt > 100) throw error;
      target = `${base}-${attempt}`;
    }
  }
  await handle.truncate(from);
  return target;
}
