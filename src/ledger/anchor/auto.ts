import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../errors.js';
import { ledgerPaths } from '../paths.js';
import { anchorHead } from './anchor.js';
import { anchorEveryMs, autoAnchorOn, tsaUrlsOf } from './settings.js';

/**
 * AUTOHEDGE_ANCHOR=1: after an append, the head is anchored — at most once per
 * AUTOHEDGE_ANCHOR_EVERY per ledger (the time of the last attempt is kept in
 * anchors/last-attempt), so a universe of 500 tickers asks the TSAs a handful of times.
 * A failed anchor is retried at the next opportunity after the interval; nothing here
 * blocks a run for long or fails it: every problem comes back as a warning.
 */

export interface AutoAnchorInput {
  home: string;
  demo: boolean;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
}

/** Whether this opportunity is due, claimed by writing the time first (a racing writer sees it). */
async function claim(directory: string, now: Date, everyMs: number): Promise<boolean> {
  const file = join(directory, 'last-attempt');
  const last = Date.parse(await readFile(file, 'utf8').catch(() => ''));
  if (Number.isFinite(last) && now.getTime() - last < everyMs && now.getTime() >= last) return false;
  await mkdir(directory, { recursive: true });
  await writeFile(file, now.toISOString());
  return true;
}

/** Null when nothing was due or all went well; else the warning to show. */
export async function autoAnchor(input: AutoAnchorInput): Promise<string | null> {
  if (!autoAnchorOn(input.env)) return null;
  try {
    const paths = ledgerPaths(input.home, { demo: input.demo });
    const now = input.now?.() ?? new Date();
    if (!(await claim(paths.anchors, now, anchorEveryMs(input.env)))) return null;
    const outcome = await anchorHead({ paths, urls: tsaUrlsOf([], input.env), timeoutMs: 10_000 });
    if (outcome.failed.length === 0) return null;
    const names = outcome.failed.map((failure) => `${failure.tsa} (${failure.message})`).join(', ');
    return outcome.stamped.length > 0 || outcome.already
      ? `anchoring seq ${outcome.seq}: ${names} failed; the others stamped it`
      : `the ledger head (seq ${outcome.seq}) was not anchored: ${names}; it is retried after the next append`;
  } catch (error) {
    return `the ledger head was not anchored: ${errorMessage(error)}`;
  }
}
