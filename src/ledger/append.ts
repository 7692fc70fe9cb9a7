import * as fs from 'node:fs';
import { lstat, mkdir, open, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, errorMessage } from '../errors.js';
import { LedgerError } from './errors.js';
import { maxLineBytes } from './lines.js';
import { tornFileName, type LedgerPaths } from './paths.js';
import { ledgerRecordSchema, recordLine, type LedgerRecord } from './record.js';
import type { ChainTip } from './seal.js';
import { badLine } from './verify.js';

/**
 * One append to a ledger file, serialised across threads and processes by a lock
 * (proper-lockfile: an atomic mkdir, stale after 10 s, so a crashed writer does not
 * block the next one forever). Under the lock: a torn tail left by a crash is moved to
 * ledger.torn-<time> (a whole record that only lost its newline is completed instead),
 * the last record gives the next seq and prev, and — right before the write, after the
 * tail is read again and the lock is seen to be still ours — the new record goes in one
 * write of its whole line, flushed to disk before the lock is released. A writer that
 * stalled past the stale limit (SIGSTOP, a suspended laptop) finds the lock gone and
 * starts over on the new tip: it never writes a record whose prev is not the tail.
 */

export interface AppendOutcome {
  record: LedgerRecord;
  /** Where a torn tail was moved, when there was one. */
  tornMovedTo: string | null;
  /** The last record had lost only its newline: it was kept and completed. */
  completedTail: boolean;
}

export interface AppendOptions {
  /** Wall clock of the append (tests). */
  now?: () => Date;
  /** When a lock not refreshed counts as abandoned (default 10 s). */
  staleMs?: number;
  /** Opens the ledger (tests: a disk that writes short). */
  openFile?: (path: string, flags: number) => Promise<FileHandle>;
  /** Runs after the record is built, before the checks that precede the write (tests: a stall). */
  beforeWrite?: () => void;
}

type Build = (tip: ChainTip | null) => LedgerRecord;

/** A lock lost to a stall is retried a few times, each time on the tip found then. */
const attempts = 3;

export async function appendToLedger(
  paths: LedgerPaths,
  build: Build,
  options: AppendOptions = {},
): Promise<AppendOutcome> {
  await mkdir(paths.directory, { recursive: true });
  await refuseSymlink(paths.file);
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const outcome = await appendOnce(paths, build, options);
    if (outcome !== 'lost') return outcome;
  }
  throw new LedgerError(
    `lost the lock on ${paths.file} ${attempts} times (a writer stalled past the stale limit); nothing appended`,
  );
}

/** ledger.jsonl must be the file itself: an append through a symlink would truncate whatever it points to. */
async function refuseSymlink(file: string): Promise<void> {
  const info = await lstat(file).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return null;
    throw new LedgerError(`cannot read ${file}: ${errorMessage(error)}`, 'io', { cause: error });
  });
  if (info && !info.isFile())
    throw new LedgerError(`${file} is not a regular file (a symlink?); nothing appended`, 'invalid');
}

async function appendOnce(paths: LedgerPaths, build: Build, options: AppendOptions): Promise<AppendOutcome | 'lost'> {
  const { lock } = await import('proper-lockfile');
  const staleMs = options.staleMs ?? 10_000;
  let lost = false;
  let release: () => Promise<void>;
  try {
    release = await lock(paths.file, {
      stale: staleMs,
      realpath: false,
      lockfilePath: paths.lock,
      retries: { retries: 400, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true },
      // A lock found lost is not ours to remove: its new holder's directory stays.
      fs: {
        ...fs,
        rmdir: (path: string, done: (error: Error | null) => void) => (lost ? done(null) : fs.rmdir(path, done)),
      },
      onCompromised: () => {
        lost = true;
      },
    });
  } catch (error) {
    throw new LedgerError(`cannot lock ${paths.file}: ${errorMessage(error)}`, 'io', { cause: error });
  }
  const identity = await stat(paths.lock);
  const owned = async (): Promise<boolean> => {
    if (lost) return false;
    const now = await stat(paths.lock).catch(() => null);
    // Gone, taken over (another directory), or old enough that anyone may take it over now.
    lost =
      now === null ||
      now.ino !== identity.ino ||
      now.birthtimeMs !== identity.birthtimeMs ||
      Date.now() - now.mtimeMs > staleMs * 0.8;
    return !lost;
  };
  try {
    return await appendLocked(paths, build, options, owned);
  } finally {
    await release().catch(() => {});
  }
}

async function appendLocked(
  paths: LedgerPaths,
  build: Build,
  options: AppendOptions,
  owned: () => Promise<boolean>,
): Promise<AppendOutcome | 'lost'> {
  const flags = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW;
  const handle = await (options.openFile ?? open)(paths.file, flags).catch((error: unknown) => {
    if (errorCode(error) === 'ELOOP') throw new LedgerError(`${paths.file} is a symlink; nothing appended`, 'invalid');
    throw error;
  });
  const now = options.now ?? (() => new Date());
  try {
    const tail = await readTail(handle, paths.file);
    // The last complete line is checked before anything moves: a file that is not a ledger is left alone.
    const tip = tipOf(tail.lastLine, paths.file);
    const repair = await repairTail(paths, handle, tail, tip, now());
    const current = repair.tail;
    const record = build(repair.tip);
    options.beforeWrite?.();
    if (!(await owned())) return 'lost';
    const again = await readTail(handle, paths.file);
    if (again.complete !== current.complete || again.lastLine !== current.lastLine || again.torn !== null)
      return 'lost';
    await writeWhole(handle, `${recordLine(record)}\n`, current.complete, paths.file);
    return { record, tornMovedTo: repair.movedTo, completedTail: repair.completed };
  } finally {
    await handle.close();
  }
}

/** The whole line or nothing: a short write (a full disk) is cut back to the tail and said. */
async function writeWhole(handle: FileHandle, line: string, tail: number, file: string): Promise<void> {
  const bytes = Buffer.from(line, 'utf8');
  try {
    const { bytesWritten: written } = await handle.write(bytes, 0, bytes.length);
    if (written !== bytes.length) throw new Error(`wrote ${written} of ${bytes.length} bytes (disk full?)`);
    await handle.sync();
  } catch (error) {
    await handle.truncate(tail).catch(() => {});
    throw new LedgerError(
      `cannot write the record to ${file}: ${errorMessage(error)}; the ledger was left as it was`,
      'io',
      {
        cause: error,
      },
    );
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

/** Beyond this, the end of the file is not a ledger record (a torn one, or the last complete one). */
const maxTailWindow = 2 * maxLineBytes;

/**
 * The end of the ledger only, so an append costs the same at record 10 and at 100,000:
 * a window from the end, doubled until it holds the last complete line, and never past
 * about a megabyte. Bytes, not text: a torn tail may end inside a character.
 */
async function readTail(handle: FileHandle, file: string): Promise<Tail> {
  const { size } = await handle.stat();
  for (let window = 64 * 1024; ; window *= 2) {
    const start = Math.max(0, size - window);
    const bytes = Buffer.alloc(size - start);
    await handle.read(bytes, 0, bytes.length, start);
    const end = bytes.lastIndexOf(0x0a);
    const previous = end <= 0 ? -1 : bytes.lastIndexOf(0x0a, end - 1);
    // The last line's start is known once a newline precedes it, or the window reaches the file's start.
    if (start > 0 && previous === -1) {
      if (window >= maxTailWindow)
        throw new LedgerError(
          `the end of ${file} is over ${maxLineBytes} bytes without a record; nothing appended (run \`autohedge ledger verify\`)`,
          'invalid',
        );
      continue;
    }
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
  return { seq: parsed.data.seq, hash: parsed.data.hash, recordedAt: parsed.data.recordedAt };
}

/**
 * Bytes after the last newline: a whole next record that lost only its newline is kept
 * and completed; anything else is torn, and moved aside (never deleted).
 */
async function repairTail(
  paths: LedgerPaths,
  handle: FileHandle,
  tail: Tail,
  tip: ChainTip | null,
  at: Date,
): Promise<{ tail: Tail; tip: ChainTip | null; movedTo: string | null; completed: boolean }> {
  if (tail.torn === null) return { tail, tip, movedTo: null, completed: false };
  const text = tail.torn.toString('utf8');
  const before = tip ? { hash: tip.hash, recordedAt: tip.recordedAt } : { hash: '0'.repeat(64), recordedAt: null };
  const whole = badLine(text, tip === null ? 0 : tip.seq + 1, before);
  if ('record' in whole) {
    await writeWhole(handle, '\n', tail.complete + tail.torn.length, paths.file);
    const { seq, hash, recordedAt } = whole.record;
    const completed: Tail = { lastLine: text, torn: null, complete: tail.complete + tail.torn.length + 1 };
    return { tail: completed, tip: { seq, hash, recordedAt }, movedTo: null, completed: true };
  }
  if (tip === null && tail.torn[0] !== 0x7b)
    throw new LedgerError(`${paths.file} does not start like a ledger record; nothing appended`, 'invalid');
  const movedTo = await moveTorn(paths, handle, tail.torn, tail.complete, at);
  return { tail: { ...tail, torn: null }, tip, movedTo, completed: false };
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
