import { posix } from 'node:path';

/**
 * The site's addresses, one scheme for the server and the bundle: every page is a path
 * ending in `.html` (or a file of the ledger), and every link on a page is relative to
 * the page's own path, so the same HTML works under `http://127.0.0.1:<port>/` and from
 * `file://` in a bundle written to disk.
 */

export const sitePaths = {
  home: 'index.html',
  runs: (page = 1) => (page === 1 ? 'runs/index.html' : `runs/page-${page}.html`),
  run: (runId: string) => `runs/${runId}/report.html`,
  ledger: 'ledger/index.html',
  ledgerExport: 'ledger/ledger-export.jsonl',
  anchor: (name: string) => `ledger/anchors/${name}`,
  trackRecord: 'track-record.html',
  evaluations: 'evaluations/index.html',
  evaluation: (id: string) => `evaluations/${id}/evaluation.html`,
  portfolios: 'portfolios/index.html',
  portfolio: (id: string) => `portfolios/${id}/report.html`,
  watch: 'watch/index.html',
  cycle: (id: string) => `watch/${id}/delta.html`,
} as const;

/** `to` as a link from the page at `from` (both site paths), percent-encoded segment by segment. */
export function linkFrom(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to) || posix.basename(to);
  return relative.split('/').map(encodeURIComponent).join('/');
}

/** A name that may be one segment of a site path: a run id, an evaluation, a portfolio or a cycle's folder. */
const segmentPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isSafeSegment(name: string): boolean {
  return segmentPattern.test(name) && !name.includes('..');
}
