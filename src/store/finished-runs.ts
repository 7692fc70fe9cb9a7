import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { errorCode, errorMessage } from '../errors.js';
import { RunStoreError } from './errors.js';
import { isValidRunId, runFileNames, runsDirectory } from './run-store.js';

/** A run that counts as done for --resume: it reached a decision or reported what it could. */
const finishedStatuses = new Set(['ok', 'degraded', 'flagged']);

/** Only what --resume needs from a saved result; everything else in it is left unread. */
const runKeySchema = z.object({ ticker: z.string(), asOf: z.string(), status: z.string() });

/** How many result files are read at once. */
const readsInFlight = 16;

/**
 * The tickers with a finished run (ok, degraded or flagged) whose as-of day is `asOfDay`
 * (YYYY-MM-DD, UTC), from the run store. Failed, interrupted, partial and unreadable
 * runs do not count, so --resume runs those tickers again. Reads a few files at a
 * time and keeps only the symbols.
 */
export async function finishedTickers(home: string, asOfDay: string): Promise<Set<string>> {
  const names = await runNames(home);
  const finished = new Set<string>();
  let next = 0;
  const reader = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      const key = await readRunKey(join(runsDirectory(home), name, runFileNames.result));
      if (key && finishedStatuses.has(key.status) && key.asOf.slice(0, 10) === asOfDay) finished.add(key.ticker);
    }
  };
  await Promise.all(Array.from({ length: readsInFlight }, reader));
  return finished;
}

async function runNames(home: string): Promise<string[]> {
  try {
    const entries = await readdir(runsDirectory(home), { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && isValidRunId(entry.name)).map((entry) => entry.name);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

async function readRunKey(path: string): Promise<z.infer<typeof runKeySchema> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    // A run that did not finish saving: not finished, so it runs again.
    if (errorCode(error) === 'ENOENT') return null;
    // An I/O error (EMFILE, EACCES, EIO) says nothing about the run: guessing "not finished"
    // would buy that analysis again, so --resume stops and says why.
    throw new RunStoreError(`cannot read ${path} for --resume: ${errorMessage(error)}`, 'unreadable', { cause: error });
  }
  try {
    const parsed = runKeySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    // A corrupt one: not finished, so it runs again.
    return null;
  }
}
