import { renderHtml } from '../report/html.js';
import { isValidRunId, loadRun, RunIndex, type RunSummary } from '../store/index.js';
import {
  EvaluationCache,
  evaluationIds,
  latestEvaluation,
  readEvaluation,
  type SavedEvaluation,
} from './evaluations.js';
import { HomeFiles } from './home-files.js';
import { sitePage, withNavigation, type SiteContext } from './layout.js';
import { anchorRoots, ledgerExport, ledgerPage, readLedgerState, rootsFile } from './ledger-page.js';
import { isSafeSegment, sitePaths } from './links.js';
import {
  evaluationSitePage,
  evaluationsPage,
  folderListPage,
  overviewPage,
  type TrackRecordSource,
} from './list-pages.js';
import { pageCount, runsPage, runsQuerySchema } from './runs-page.js';
import type { EvaluationDocument } from '../report/evaluation-page.js';

/**
 * The pages of `autohedge view`, one router for the server and the bundle: a site path
 * (`runs/<id>/report.html`) and a query in, a status, a type and a body out. It reads
 * the home through the run index and HomeFiles, and writes nothing anywhere.
 */

export interface SiteOptions {
  home: string;
  demo: boolean;
  /** The server (filters, the compute link) or the bundle (static pages). */
  live: boolean;
  /** The track record when none is saved, or when asked: the demo's offline evaluation, or one from the saved prices. */
  computeEvaluation: () => Promise<EvaluationDocument>;
  now?: () => Date;
}

export interface SiteResponse {
  status: number;
  type: string;
  body: string | Buffer;
}

const html = 'text/html; charset=utf-8';

export class Site {
  readonly files: HomeFiles;
  private readonly index: RunIndex;
  private readonly cache: EvaluationCache;
  private readonly context: SiteContext;
  private readonly now: () => Date;

  constructor(private readonly options: SiteOptions) {
    this.files = new HomeFiles(options.home);
    this.index = new RunIndex(this.files.home);
    this.cache = new EvaluationCache(options.computeEvaluation);
    this.context = { demo: options.demo, live: options.live };
    this.now = options.now ?? (() => new Date());
  }

  /** The runs this site shows: the demo's under --demo, else every saved run. */
  async runs(): Promise<RunSummary[]> {
    const all = await this.index.list();
    return this.options.demo ? all.filter((run) => run.demo) : all;
  }

  async get(path: string, query: URLSearchParams): Promise<SiteResponse> {
    const parts = path.split('/');
    if (path === '' || path === sitePaths.home) return this.page(await this.overview());
    if (parts[0] === 'runs') return this.runsRoute(parts, query);
    if (parts[0] === 'ledger') return this.ledgerRoute(parts);
    if (path === sitePaths.trackRecord) return this.trackRecordPage(query.get('compute') === '1');
    if (parts[0] === 'evaluations') return this.evaluationsRoute(parts);
    if (parts[0] === 'portfolios' || parts[0] === 'watch') return this.folderRoute(parts[0], parts);
    return this.notFound();
  }

  private page(body: string | null, status = 200): SiteResponse {
    return body === null ? this.notFound() : { status, type: html, body };
  }

  notFound(): SiteResponse {
    const body = sitePage(
      sitePaths.home,
      'Not found',
      '<h1>Not found</h1>\n<p class="meta">Nothing at this address.</p>',
      this.context,
    );
    return { status: 404, type: html, body };
  }

  private async runsRoute(parts: string[], query: URLSearchParams): Promise<SiteResponse> {
    const runs = await this.runs();
    if (parts.length === 2) {
      const match = /^(?:index|page-([1-9][0-9]{0,6}))\.html$/.exec(parts[1]!);
      if (!match) return this.notFound();
      const filters = this.options.live ? runsQuerySchema.parse(Object.fromEntries(query)) : {};
      return this.page(runsPage(runs, match[1] ? Number(match[1]) : 1, filters, this.context));
    }
    if (parts.length !== 3 || parts[2] !== 'report.html' || !isValidRunId(parts[1]!)) return this.notFound();
    const runId = parts[1]!;
    if (!runs.some((run) => run.runId === runId && run.state === 'ok')) return this.notFound();
    const result = await loadRun(this.files.home, runId);
    return this.page(withNavigation(renderHtml(result), sitePaths.run(runId), this.context));
  }

  private async ledgerRoute(parts: string[]): Promise<SiteResponse> {
    const state = await readLedgerState(this.files, this.options.demo);
    const path = parts.join('/');
    if (path === sitePaths.ledger) {
      const exported = state.report !== null && !state.report.firstBad && state.report.verified.length > 0;
      return this.page(ledgerPage(state, this.context, exported));
    }
    if (path === sitePaths.ledgerExport) {
      const text = await ledgerExport(this.files, this.options.demo, state, this.now());
      return text === null ? this.notFound() : { status: 200, type: 'text/plain; charset=utf-8', body: text };
    }
    if (path === sitePaths.anchor(rootsFile) && state.anchors.length > 0)
      return { status: 200, type: 'application/x-pem-file', body: await anchorRoots(this.files, this.options.demo) };
    if (parts.length === 3 && parts[1] === 'anchors' && isSafeSegment(parts[2]!)) {
      const bytes = await this.files.read(['ledger', ...(this.options.demo ? ['demo'] : []), 'anchors', parts[2]!]);
      if (bytes !== null) return { status: 200, type: anchorType(parts[2]!), body: bytes };
    }
    return this.notFound();
  }

  /** The latest saved evaluation of this kind, else (or when asked) one computed now and kept in memory. */
  async trackRecord(compute: boolean): Promise<TrackRecordSource | null> {
    const saved = compute || this.options.demo ? null : await latestEvaluation(this.files, false);
    if (saved) return { document: saved.document, origin: `saved evaluation ${saved.id}` };
    const runs = await this.runs();
    const key = runs.map((run) => `${run.runId}@${run.when}:${run.state}`).join('\n');
    const entry = this.cache.get(key, this.now());
    try {
      const document = await entry.document;
      if (document.decisions.length === 0) return null;
      const how = this.options.demo
        ? 'the demo’s offline evaluation (evaluate --demo: bundled synthetic prices)'
        : 'scored against the prices the saved runs hold (no network)';
      return { document, origin: `computed ${entry.at.toISOString().replace(/\.\d+Z$/, 'Z')}: ${how}` };
    } catch {
      return null;
    }
  }

  private async trackRecordPage(compute: boolean): Promise<SiteResponse> {
    const source = await this.trackRecord(compute && this.options.live);
    const runIds = new Set((await this.runs()).filter((run) => run.state === 'ok').map((run) => run.runId));
    if (!source)
      return this.page(
        sitePage(
          sitePaths.trackRecord,
          'Track record',
          `<h1>Track record</h1>\n<p class="meta">No saved decision could be scored yet${this.options.demo ? ' (run `autohedge analyze ACME --demo` first)' : ': demo runs are scored in `autohedge view --demo`'}.</p>`,
          this.context,
        ),
      );
    const computeLink = !this.options.demo && source.origin.startsWith('saved');
    return this.page(evaluationSitePage(sitePaths.trackRecord, source, runIds, { ...this.context, computeLink }));
  }

  async evaluations(): Promise<SavedEvaluation[]> {
    const saved: SavedEvaluation[] = [];
    for (const id of await evaluationIds(this.files)) {
      const evaluation = await readEvaluation(this.files, id);
      if (evaluation && (!this.options.demo || evaluation.document.demo)) saved.push(evaluation);
    }
    return saved;
  }

  private async evaluationsRoute(parts: string[]): Promise<SiteResponse> {
    if (parts.join('/') === sitePaths.evaluations)
      return this.page(evaluationsPage(await this.evaluations(), this.context));
    if (parts.length !== 3 || parts[2] !== 'evaluation.html' || !isSafeSegment(parts[1]!)) return this.notFound();
    const saved = await readEvaluation(this.files, parts[1]!);
    if (!saved || (this.options.demo && !saved.document.demo)) return this.notFound();
    const runIds = new Set((await this.runs()).filter((run) => run.state === 'ok').map((run) => run.runId));
    const source = { document: saved.document, origin: `saved evaluation ${saved.id}` };
    return this.page(
      evaluationSitePage(sitePaths.evaluation(saved.id), source, runIds, { ...this.context, computeLink: false }),
    );
  }

  /**
   * Saved portfolios and watch cycles, newest first: those whose page was written in full. The
   * demo's watch cycles are kept in watch/demo/ (`watch --demo`): under --demo, those are the ones.
   */
  async folders(kind: 'portfolios' | 'watch'): Promise<string[]> {
    const file = kind === 'portfolios' ? 'portfolio.json' : 'delta.json';
    const base = this.folderBase(kind);
    const ids = await this.files.list(base, 'directories');
    const present: string[] = [];
    for (const id of ids.reverse())
      if ((await this.files.list([...base, id], 'files')).includes(file)) present.push(id);
    // A demo cycle's site path mirrors its place in the home, so its relative links hold.
    return base.length > 1 ? present.map((id) => `demo/${id}`) : present;
  }

  private folderBase(kind: 'portfolios' | 'watch'): string[] {
    return kind === 'watch' && this.options.demo ? ['watch', 'demo'] : [kind];
  }

  private async folderRoute(kind: 'portfolios' | 'watch', parts: string[]): Promise<SiteResponse> {
    if (parts.length === 2 && parts[1] === 'index.html')
      return this.page(folderListPage(kind, await this.folders(kind), this.context));
    const file = kind === 'portfolios' ? 'report.html' : 'delta.html';
    const base = this.folderBase(kind);
    const [id, name] = parts.slice(base.length);
    const within = parts.slice(0, base.length).join('/') === base.join('/');
    if (!within || parts.length !== base.length + 2 || name !== file || !isSafeSegment(id!)) return this.notFound();
    const text = await this.files.readText([...base, id!, file]);
    if (text === null) return this.notFound();
    return this.page(withNavigation(text, parts.join('/'), this.context));
  }

  private async overview(): Promise<string> {
    const [runs, trackRecord, ledger] = await Promise.all([
      this.runs(),
      this.trackRecord(false),
      readLedgerState(this.files, this.options.demo),
    ]);
    const report = ledger.report;
    const ledgerLine = !report
      ? (ledger.problem ?? 'no ledger')
      : report.firstBad
        ? `Ledger BROKEN at seq ${report.firstBad.seq} (${report.firstBad.reason})`
        : `Ledger intact: ${report.records} record(s), head ${report.head?.slice(0, 16) ?? '(none)'}…`;
    return overviewPage({ runs, trackRecord, ledgerLine }, this.context);
  }

  /** Every page and file of the site, for the bundle. */
  async paths(): Promise<string[]> {
    const runs = await this.runs();
    const ledger = await readLedgerState(this.files, this.options.demo);
    return [
      sitePaths.home,
      ...Array.from({ length: pageCount(runs.length) }, (_, index) => sitePaths.runs(index + 1)),
      ...runs.filter((run) => run.state === 'ok').map((run) => sitePaths.run(run.runId)),
      sitePaths.ledger,
      ...(ledger.report && !ledger.report.firstBad && ledger.report.verified.length > 0
        ? [sitePaths.ledgerExport]
        : []),
      ...new Set(ledger.anchors.flatMap((anchor) => anchor.files.map(sitePaths.anchor))),
      ...(ledger.anchors.length > 0 ? [sitePaths.anchor(rootsFile)] : []),
      sitePaths.trackRecord,
      sitePaths.evaluations,
      ...(await this.evaluations()).map((saved) => sitePaths.evaluation(saved.id)),
      sitePaths.portfolios,
      ...(await this.folders('portfolios')).map(sitePaths.portfolio),
      sitePaths.watch,
      ...(await this.folders('watch')).map(sitePaths.cycle),
    ];
  }
}

function anchorType(name: string): string {
  if (name.endsWith('.json')) return 'application/json';
  if (name.endsWith('.tsr')) return 'application/timestamp-reply';
  if (name.endsWith('.tsq')) return 'application/timestamp-query';
  return 'application/octet-stream';
}
