/**
 * Where a cycle's delta report is saved under $AUTOHEDGE_HOME, and the way from it to a
 * run's report. A demo cycle is kept under watch/demo/, apart from the live cycles (which
 * `autohedge view` lists); runs are in runs/<runId>/ either way, a demo run marked as such.
 */
export function cycleFolder(demo: boolean, cycle: string): string[] {
  const id = cycle.replace(/[^0-9A-Za-z]+/g, '-').replace(/-+$/, '');
  return demo ? ['watch', 'demo', id] : ['watch', id];
}

/** The link from a cycle's delta.html to a run's report.html, relative so it works on disk and in `view`. */
export function runReportLink(demo: boolean, runId: string): string {
  const up = '../'.repeat(cycleFolder(demo, 'x').length);
  return `${up}runs/${encodeURIComponent(runId)}/report.html`;
}
