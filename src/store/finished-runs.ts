import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { errorCode, errorMessage } from '../errors.js';
import { RunStoreError } from './errors.js';
import { mapBounded, storeReadsInFlight } from './bounded.js';
import { runDirectoryNames, runFileNames, runsDirectory } from './run-store.js';

/**
 * A run that counts as done for --resume: it reached a decision or reported what it could —
 * except a run degraded because its market data was missing (`failure.kind: "market"`), which
 * a re-run after the outage must be able to repeat the same day. Degraded for another reason
 * (a desk failed, the cap) it stays done.
 */
const finishedStatuses = new Set(['ok', 'degraded', 'flagged']);

/** Only what --resume needs from a saved result; everything else in it is left unread. */
const runKeySchema = z.object({
  ticker: z.string(),
  asOf: z.string(),
  status: z.string(),
  failure: z.object({ kind: z.string() }).loose().optional(),
});

/**
 * The tickers with a finished run (ok, degraded or flagged) whose as-of day is `asOfDay`
 * (YYYY-MM-DD, UTC), from the run store. Failed, interrupted, partial and unreadable
 * runs do not count, so --resume runs those tickers again. Reads a few files at a
 * time and keeps only the symbols.
 */
export async function finishedTickers(home: string, asOfDay: string): Promise<Set<string>> {
  const finished = new Set<string>();
  await mapBounded(await runDirectoryNames(home), storeReadsInFlight, async (name) => {
    const key = await readRunKey(join(runsDirectory(home), name, runFileNames.result));
    if (key && isFinished(key) && key.asOf.slice(0, 10) === asOfDay) finished.add(key.ticker);
  });
  return finished;
}

function isFinished(key: z.infer<typeof runKeySchema>): boolean {
  return finishedStatuses.has(key.status) && key.failure?.kind !== 'market';
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
