import { constants } from 'node:fs';
import { mkdir, open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { errorCode, UsageError } from '../errors.js';
import type { AnalysisResult, Decision, RunStatus } from '../result/types.js';
import { stringifyJsonSafely } from '../sanitize.js';
import { quoteInput } from '../text.js';
import { mapBounded, storeReadsInFlight } from './bounded.js';
import { RunStoreError } from './errors.js';
import { parseSavedResult } from '../result/result-schema.js';
import { flexPromptTokens } from '../result/run-facts.js';

/**
 * Run history on disk: $AUTOHEDGE_HOME/runs/<runId>/ holds result.json, report.md,
 * report.html, chart.svg (when there is a price history) and transcript.jsonl. result.json is written last, so a directory without it is
 * a run that did not finish saving ("partial") — listed, never fatal.
 */

export const runFileNames = {
  result: 'result.json',
  report: 'report.md',
  html: 'report.html',
  chart: 'chart.svg',
  transcript: 'transcript.jsonl',
} as const;

export interface RunFiles {
  /** Transcript lines, one JSON object each (no trailing newlines). */
  transcript: readonly string[];
  markdown: string;
  /** report.html, self-contained. */
  html?: string;
  /** chart.svg, linked from report.md; null or absent when there is nothing to draw. */
  chart?: string | null;
}

export interface RunSummary {
  runId: string;
  /** ISO instant the run started (the directory's time when result.json is missing or unreadable). */
  when: string;
  ticker: string | null;
  action: Decision['action'] | null;
  conviction: number | null;
  status: RunStatus | null;
  /** desks (--agent, no Director) or full. */
  mode: 'desks' | 'full' | null;
  /** A demo run: synthetic data, nothing spent. */
  demo: boolean;
  costUsd: number | null;
  /** The share of the agents' prompt tokens the provider's cache served; absent when none was. */
  cachedShare?: number;
  /** With cachedShare: how many tokens that was, and what it saved (null when a price is unknown). */
  cachedPromptTokens?: number;
  cacheSavedUsd?: number | null;
  /** The prompt tokens served at the flex tier; absent when none was. */
  flexPromptTokens?: number;
  /**
   * `partial`: no result.json (the run did not finish saving); `corrupt`: result.json is
   * there but is not a saved result; `unreadable`: reading it failed (EMFILE, EACCES,
   * EIO, …) — the file may be fine, so it is never called corrupt.
   */
  state: 'ok' | 'partial' | 'corrupt' | 'unreadable';
  problem?: string;
}

/** One saved run read whole: its result, or why it could not be had. */
export type SavedRunEntry =
  | { runId: string; state: 'ok'; result: AnalysisResult }
  | { runId: string; state: 'partial' | 'corrupt' | 'unreadable'; problem: string };

/** Letters, digits, dot, dash and underscore; no leading dot, so never "..", never a path. */
const runIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isValidRunId(runId: string): boolean {
  return runIdPattern.test(runId) && !runId.includes('..');
}

export function runsDirectory(home: string): string {
  return join(home, 'runs');
}

/**
 * Save a run under $home/runs/<runId>/. Throws RunStoreError when it cannot. Returns the
 * exact text written to result.json (the ledger records its digest).
 */
export async function saveRun(
  home: string,
  result: AnalysisResult,
  files: RunFiles,
): Promise<{ dir: string; resultJson: string }> {
  if (!isValidRunId(result.runId)) {
    throw new RunStoreError(`run id '${result.runId}' cannot name a directory`, 'unwritable');
  }
  const dir = join(runsDirectory(home), result.runId);
  const resultJson = await writeRunFiles(dir, result, files);
  return { dir, resultJson };
}

/** The run files into any directory (also `--out <dir>`), result.json last; returns result.json's text. */
export async function writeRunFiles(dir: string, result: AnalysisResult, files: RunFiles): Promise<string> {
  try {
    await mkdir(dir, { recursive: true });
    const transcript = files.transcript.length > 0 ? `${files.transcript.join('\n')}\n` : '';
    await writeFileAtomic(join(dir, runFileNames.transcript), transcript);
    if (files.chart) await writeFileAtomic(join(dir, runFileNames.chart), files.chart);
    await writeFileAtomic(join(dir, runFileNames.report), files.markdown);
    if (files.html !== undefined) await writeFileAtomic(join(dir, runFileNames.html), files.html);
    const resultJson = `${stringifyJsonSafely(result, 2)}\n`;
    await writeFileAtomic(join(dir, runFileNames.result), resultJson);
    return resultJson;
  } catch (error) {
    throw new RunStoreError(`cannot write ${dir}: ${describeFsError(error)}`, 'unwritable', { cause: error });
  }
}

/** Every saved run, newest first. A broken directory is listed with its problem. */
export async function listRuns(home: string): Promise<RunSummary[]> {
  const names = await runDirectoryNames(home);
  const summaries = await mapBounded(names, storeReadsInFlight, (name) =>
    summarize(join(runsDirectory(home), name), name),
  );
  return sortNewestFirst(summaries);
}

/** Newest first; runs of the same instant by run id, last first. Sorts in place. */
export function sortNewestFirst(summaries: RunSummary[]): RunSummary[] {
  return summaries.sort((a, b) => (a.when === b.when ? b.runId.localeCompare(a.runId) : a.when < b.when ? 1 : -1));
}

/** A saved result by run id or a unique prefix of one. */
export async function loadRun(home: string, runIdOrPrefix: string): Promise<AnalysisResult> {
  const wanted = runIdOrPrefix.trim();
  if (!isValidRunId(wanted)) throw new UsageError(`${quoteInput(runIdOrPrefix)} is not a run id`);
  const names = await runDirectoryNames(home);
  const runId = names.includes(wanted) ? wanted : uniquePrefixMatch(names, wanted);
  const path = join(runsDirectory(home), runId, runFileNames.result);
  let text: string;
  try {
    text = await readRunFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      throw new RunStoreError(
        `run ${runId} is incomplete: it has no ${runFileNames.result} (the run did not finish saving)`,
        'partial',
      );
    }
    throw new RunStoreError(`run ${runId} cannot be read: ${describeFsError(error)}`, 'unreadable', { cause: error });
  }
  const parsed = parseSavedResult(text);
  if (!parsed.ok) throw new RunStoreError(`run ${runId} is corrupt: ${parsed.problem}`, 'corrupt');
  return parsed.result;
}

/**
 * Every saved run read whole, a few files at a time, sorted by run id: for callers that
 * need the results themselves (evaluate), without listing and then re-reading each.
 */
export async function readSavedRuns(home: string): Promise<SavedRunEntry[]> {
  const names = (await runDirectoryNames(home)).sort();
  return mapBounded(names, storeReadsInFlight, (name) =>
    readSavedRun(join(runsDirectory(home), name, runFileNames.result), name),
  );
}

async function readSavedRun(path: string, runId: string): Promise<SavedRunEntry> {
  let text: string;
  try {
    text = await readRunFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT')
      return { runId, state: 'partial', problem: `no ${runFileNames.result} (the run did not finish saving)` };
    return { runId, state: 'unreadable', problem: `${runFileNames.result} cannot be read: ${describeFsError(error)}` };
  }
  const parsed = parseSavedResult(text);
  return parsed.ok
    ? { runId, state: 'ok', result: parsed.result }
    : { runId, state: 'corrupt', problem: parsed.problem };
}

/**
 * A run's file, read only when it is a regular file in the store: a symbolic link (say,
 * result.json → /etc/shadow) is refused without being followed (O_NOFOLLOW), and so is a
 * FIFO or a device that would block or stream for ever.
 */
async function readRunFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (error: unknown) => {
      if (errorCode(error) === 'ELOOP') throw new NotRegularFileError('a symbolic link (not followed)');
      throw error;
    },
  );
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError('not a regular file');
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
}

function uniquePrefixMatch(names: string[], prefix: string): string {
  const matches = names.filter((name) => name.startsWith(prefix)).sort();
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new UsageError(`no saved run matches ${quoteInput(prefix)} (list them with: autohedge runs)`);
  const shown = matches.slice(0, 5).join(', ') + (matches.length > 5 ? ', …' : '');
  throw new UsageError(`${quoteInput(prefix)} matches ${matches.length} runs (${shown}); give more of the run id`);
}

/** Run directories by name; none when the runs folder does not exist yet. */
export async function runDirectoryNames(home: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(runsDirectory(home), { withFileTypes: true });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new RunStoreError(`cannot read ${runsDirectory(home)}: ${describeFsError(error)}`, 'unreadable', {
      cause: error,
    });
  }
  // Hidden entries are temporary files and editor litter, not runs.
  return entries.filter((entry) => entry.isDirectory() && isValidRunId(entry.name)).map((entry) => entry.name);
}

/** One run directory's line in the listing, read and validated from its result.json. */
export async function summarize(dir: string, runId: string): Promise<RunSummary> {
  const unknown = {
    ticker: null,
    action: null,
    conviction: null,
    status: null,
    mode: null,
    demo: false,
    costUsd: null,
  };
  let text: string;
  try {
    text = await readRunFile(join(dir, runFileNames.result));
  } catch (error) {
    const when = await modifiedAt(dir);
    if (errorCode(error) === 'ENOENT') {
      return {
        runId,
        when,
        ...unknown,
        state: 'partial',
        problem: `no ${runFileNames.result} (the run did not finish saving)`,
      };
    }
    return {
      runId,
      when,
      ...unknown,
      state: 'unreadable',
      problem: `${runFileNames.result} cannot be read: ${describeFsError(error)}`,
    };
  }
  const parsed = parseSavedResult(text);
  if (!parsed.ok) return { runId, when: await modifiedAt(dir), ...unknown, state: 'corrupt', problem: parsed.problem };
  const result = parsed.result;
  return {
    runId,
    when: validInstant(result.startedAt) ?? validInstant(result.asOf) ?? (await modifiedAt(dir)),
    ticker: result.ticker,
    action: result.decision?.action ?? null,
    conviction: result.decision?.conviction ?? null,
    status: result.status,
    mode: result.mode === 'agents' ? 'desks' : 'full',
    demo: result.demo === true,
    costUsd: result.usage.costUsd,
    ...cacheSummary(result.usage),
    ...(flexPromptTokens(result.usage) > 0 ? { flexPromptTokens: flexPromptTokens(result.usage) } : {}),
    state: 'ok',
  };
}

function cacheSummary(usage: AnalysisResult['usage']): Partial<RunSummary> {
  if (!(usage.cachedPromptTokens > 0 && usage.promptTokens > 0)) return {};
  return {
    cachedShare: usage.cachedPromptTokens / usage.promptTokens,
    cachedPromptTokens: usage.cachedPromptTokens,
    ...(usage.cacheSavedUsd !== undefined ? { cacheSavedUsd: usage.cacheSavedUsd } : {}),
  };
}

function validInstant(text: string): string | null {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

async function modifiedAt(path: string): Promise<string> {
  try {
    return (await stat(path)).mtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

/** "ENOTDIR: not a directory" without the syscall and path Node appends. */
function describeFsError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.message.replace(/,\s*\w+\s+'[^']*'(?:\s*->\s*'[^']*')?$/, '');
}
