import { errorMessage } from '../errors.js';
import type { AnalysisResult } from '../result/types.js';
import { scrubDeep } from '../scrub.js';
import { appendToLedger, type AppendOptions, type AppendOutcome } from './append.js';
import { LedgerError } from './errors.js';
import { recordContentOf } from './from-result.js';
import { loadSigningKey } from './key-files.js';
import { rememberKey } from './key-state.js';
import { ledgerPaths } from './paths.js';
import { sealRecord, type ChainTip } from './seal.js';
import { autoAnchor } from './anchor/auto.js';
import { autoAnchorOn } from './anchor/settings.js';

export interface LedgerAppendInput {
  /** $AUTOHEDGE_HOME of the run store the run was saved in. */
  home: string;
  /** The run as saved (already scrubbed). */
  result: AnalysisResult;
  /** The exact bytes written to result.json. */
  resultJson: string | Uint8Array;
  /** Secrets to keep out of the record, as everywhere else (defence in depth: the result is already scrubbed). */
  secrets?: readonly string[];
  /** Wall clock of the append (tests); never the run's own as-of clock. */
  now?: () => Date;
  /** Test hooks of the append (a stall, a short write). */
  append?: Omit<AppendOptions, 'now'>;
  /** The run's environment: AUTOHEDGE_ANCHOR=1 anchors the head after the append (anchor/auto.ts). */
  env?: NodeJS.ProcessEnv;
  /** A replayed run (`--demo`, `--replay`): nothing leaves the machine, so nothing is anchored. */
  replaying?: boolean;
}

export interface LedgerAppended extends AppendOutcome {
  /** What the user should hear: a completed tail, a torn one moved aside, an anchor that failed. */
  notices: string[];
}

/** The time a record is given: now, never before the record it follows (a clock stepped back). */
function recordedAt(now: Date, tip: ChainTip | null): string {
  const at = now.toISOString();
  return tip && Date.parse(tip.recordedAt) > now.getTime() ? tip.recordedAt : at;
}

/**
 * The one way a saved run enters the ledger: a run with a decision gets a record (demo
 * runs in the demo's own ledger), signed when the home has a key; a run without one
 * gets none (null). Throws LedgerError when the record could not be written.
 */
export async function appendRunToLedger(input: LedgerAppendInput): Promise<LedgerAppended | null> {
  const now = input.now ?? (() => new Date());
  const content = recordContentOf(input.result, input.resultJson, now());
  if (content === null) return null;
  const paths = ledgerPaths(input.home, { demo: input.result.demo });
  const key = await loadSigningKey(paths);
  const clean = scrubDeep(content, input.secrets ?? []);
  try {
    // recordedAt is taken again under the lock: the time the record actually joined the chain.
    const outcome = await appendToLedger(
      paths,
      (tip) => sealRecord({ ...clean, recordedAt: recordedAt(now(), tip) }, tip, key),
      { ...input.append, now },
    );
    // From its first signature on, the home remembers its key: an all-unsigned rewrite then fails.
    if (key && outcome.record.sig !== undefined)
      await rememberKey(paths, { keyId: key.keyId, signedFrom: outcome.record.seq });
    const notices = noticesOf(outcome, paths.file);
    const anchored = !input.env
      ? null
      : input.replaying
        ? replayNotice(input.env, input.result.demo)
        : await autoAnchor({ home: input.home, demo: input.result.demo, env: input.env, now });
    return { ...outcome, notices: anchored ? [...notices, anchored] : notices };
  } catch (error) {
    if (error instanceof LedgerError) throw error;
    throw new LedgerError(`cannot append to ${paths.file}: ${errorMessage(error)}`, 'io', { cause: error });
  }
}

/** Under a replay the TSAs are never asked: said when AUTOHEDGE_ANCHOR=1 expected an anchor. */
function replayNotice(env: NodeJS.ProcessEnv, demo: boolean): string | null {
  if (!autoAnchorOn(env)) return null;
  return `AUTOHEDGE_ANCHOR=1: a replay sends nothing off this machine, so the head was not anchored (\`autohedge ledger anchor${demo ? ' --demo' : ''}\` anchors it)`;
}

function noticesOf(outcome: AppendOutcome, file: string): string[] {
  const notices: string[] = [];
  if (outcome.completedTail)
    notices.push(
      `the last record of ${file} had lost its newline; it was complete, so it was kept and the newline added`,
    );
  if (outcome.tornMovedTo)
    notices.push(`a torn last line of ${file} (a crash mid-append) was moved to ${outcome.tornMovedTo}`);
  return notices;
}
