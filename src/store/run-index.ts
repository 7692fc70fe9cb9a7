import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { mapBounded, storeReadsInFlight } from './bounded.js';
import {
  runDirectoryNames,
  runFileNames,
  runsDirectory,
  sortNewestFirst,
  summarize,
  type RunSummary,
} from './run-store.js';

/**
 * The run list of one home, kept between calls by a long-lived shell (`autohedge mcp`,
 * whose `runs_list` a client may call hundreds of times): each run's summary is read and
 * validated once, and again only when its result.json changes. A call still lists the
 * directory and stats each result.json (a stat is cheap, a parse of a saved run is not),
 * so a run saved, rewritten or removed since the last call is seen by the next one.
 *
 * A summary is keyed by what lstat says of result.json (its inode, size, modification and
 * change times): result.json is written last, by an atomic rename, so a finished
 * save always changes the key. A stat taken before the read keeps the summary at least as
 * new as its key. Calls at once share one read of each run. A read that failed (EMFILE,
 * EACCES) is not kept: the next call tries again.
 */
export class RunIndex {
  private readonly entries = new Map<string, { key: string; summary: Promise<RunSummary> }>();

  /** `read`: how one run directory is summarised (the store's own; a test may count the reads). */
  constructor(
    private readonly home: string,
    private readonly read: (dir: string, runId: string) => Promise<RunSummary> = summarize,
  ) {}

  async list(): Promise<RunSummary[]> {
    const names = await runDirectoryNames(this.home);
    const present = new Set(names);
    for (const runId of this.entries.keys()) if (!present.has(runId)) this.entries.delete(runId);
    const summaries = await mapBounded(names, storeReadsInFlight, (runId) => this.summaryOf(runId));
    return sortNewestFirst(summaries);
  }

  private async summaryOf(runId: string): Promise<RunSummary> {
    const dir = join(runsDirectory(this.home), runId);
    const key = await fileKey(join(dir, runFileNames.result));
    const known = this.entries.get(runId);
    if (key !== null && known?.key === key) return known.summary;
    const summary = this.read(dir, runId);
    // No result.json (a run still saving) is cheap to list again, and is not kept.
    if (key === null) {
      this.entries.delete(runId);
      return summary;
    }
    const entry = { key, summary };
    this.entries.set(runId, entry);
    void summary.then((value) => {
      // An I/O failure says nothing of the file: read it again next time.
      if (value.state === 'unreadable' && this.entries.get(runId) === entry) this.entries.delete(runId);
    });
    return summary;
  }
}

/** result.json's identity as far as a stat can tell; null when there is none or the stat failed. */
async function fileKey(path: string): Promise<string | null> {
  try {
    const info = await lstat(path, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return null;
  }
}
