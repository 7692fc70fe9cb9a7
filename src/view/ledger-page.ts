import { readLedgerFile, verifyHomeLedger, type VerifyReport } from '../ledger/check.js';
import { LedgerError } from '../ledger/errors.js';
import { exportText } from '../ledger/export-file.js';
import { loadPublicKey } from '../ledger/key-files.js';
import { rootsPem } from '../ledger/anchor/export-files.js';
import { bytesFile, tokenFile } from '../ledger/anchor/store.js';
import { trustedRoots } from '../ledger/anchor/roots.js';
import { ledgerPaths } from '../ledger/paths.js';
import type { LedgerRecord } from '../ledger/record.js';
import { escapeHtml } from '../report/escape.js';
import { tableHtml } from '../report/html-blocks.js';
import type { HomeFiles } from './home-files.js';
import { sitePage, type SiteContext } from './layout.js';
import { linkFrom, sitePaths } from './links.js';

/**
 * The ledger page: whether the chain verifies, its head, its signatures, the records, and
 * the anchors exactly as `ledger verify` judges them (RFC 3161 tokens under `anchors/`, each
 * checked against the chain and the trusted roots): a record counts as anchored only by a
 * valid token covering it. A file that is no valid token (a failed attempt's leftover, a
 * file dropped in the folder) anchors nothing. Read-only: the ledger's own verifier, no repair.
 */

/** The roots file beside the anchors, in a bundle as in `ledger export`. */
export const rootsFile = 'roots.pem';

export interface AnchorView {
  seq: number;
  tsa: string;
  genTime: string | null;
  ok: boolean;
  reason?: string;
  /** The files of this anchor in the anchors/ folder: the stamped bytes and the token. */
  files: string[];
}

export interface LedgerState {
  file: string;
  report: VerifyReport | null;
  /** Why the ledger could not be read (absent, unreadable), when it could not. */
  problem: string | null;
  anchors: AnchorView[];
  lastAnchoredSeq: number | null;
}

export async function readLedgerState(files: HomeFiles, demo: boolean): Promise<LedgerState> {
  const paths = ledgerPaths(files.home, { demo });
  let report: VerifyReport | null = null;
  let problem: string | null = null;
  try {
    report = await verifyHomeLedger(paths);
  } catch (error) {
    problem =
      error instanceof LedgerError && error.kind === 'missing'
        ? `no ledger yet${demo ? ' for the demo' : ''}: a saved run with a decision starts it`
        : `the ledger cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  const anchors = (report?.anchors ?? []).map((verdict) => ({
    ...verdict,
    // The store's own names: the file names of a directory given as ''.
    files: [bytesFile('', verdict.seq), tokenFile('', verdict.seq, verdict.tsa)],
  }));
  const valid = anchors.filter((anchor) => anchor.ok).map((anchor) => anchor.seq);
  return { file: paths.file, report, problem, anchors, lastAnchoredSeq: valid.length > 0 ? Math.max(...valid) : null };
}

/** The roots the anchors were checked against, for `openssl ts -verify -CAfile roots.pem` on a bundle. */
export async function anchorRoots(files: HomeFiles, demo: boolean): Promise<string> {
  return rootsPem(await trustedRoots(ledgerPaths(files.home, { demo }).anchors));
}

/** The export a bundle publishes: the verified records byte for byte, with the public key when they are signed. */
export async function ledgerExport(
  files: HomeFiles,
  demo: boolean,
  state: LedgerState,
  at: Date,
): Promise<string | null> {
  const report = state.report;
  if (!report || report.firstBad || report.verified.length === 0) return null;
  const paths = ledgerPaths(files.home, { demo });
  const key = await loadPublicKey(paths.publicKey, false);
  const signing = key && report.verified.some((record) => record.sig !== undefined) ? key : null;
  const publicPem = signing ? await files.readText(['ledger', 'signing-key.pub.pem']) : null;
  const lines = (await readLedgerFile(paths.file)).lines.slice(0, report.verified.length);
  return exportText(lines, publicPem && signing ? { publicPem, keyId: signing.keyId } : null, report.head, at);
}

function statusHtml(state: LedgerState): string {
  const report = state.report;
  if (!report) return `<p class="meta">${escapeHtml(state.problem ?? 'no ledger')}</p>`;
  const lines: string[] = [];
  if (report.firstBad)
    lines.push(
      `<p class="banner" data-tone="bad" data-chain="broken">Chain BROKEN at seq ${report.firstBad.seq}: ${escapeHtml(report.firstBad.reason)} — ${escapeHtml(report.firstBad.message)}. ${report.verified.length} of ${report.records} record(s) verify before it.</p>`,
    );
  else lines.push(`<p data-chain="intact"><strong>Chain intact</strong>: ${report.records} record(s) verify.</p>`);
  const { keyId, unsignedBefore } = report.signatures;
  const facts = [
    ['head', report.head ?? '(none)'],
    [
      'signatures',
      keyId
        ? `key ${keyId}${unsignedBefore > 0 ? `, from seq ${unsignedBefore} (earlier records predate the key)` : ''}`
        : 'not checked (no public key, or nothing signed)',
    ],
    [
      'anchors',
      state.anchors.length === 0
        ? 'none'
        : `${state.anchors.filter((anchor) => anchor.ok).length} valid of ${state.anchors.length}; last anchored seq ${state.lastAnchoredSeq ?? 'none'}`,
    ],
    ['not yet anchored', String(unanchored(state).length)],
    ...(report.torn ? [['torn tail', `seq ${report.torn.seq}, ${report.torn.bytes} bytes: a crash mid-append`]] : []),
  ];
  lines.push(
    `<dl class="facts">${facts.map(([label, value]) => `<div><dt>${escapeHtml(label!)}</dt><dd><code>${escapeHtml(value!)}</code></dd></div>`).join('')}</dl>`,
  );
  return lines.join('\n');
}

function unanchored(state: LedgerState): LedgerRecord[] {
  const report = state.report;
  return (report?.verified ?? []).filter((record) => !report?.anchoredBy.has(record.seq));
}

function anchorsHtml(state: LedgerState, path: string, linkAnchors: boolean): string {
  if (state.anchors.length === 0)
    return '<p class="meta">No anchors: no time-stamp token under the ledger’s anchors/ folder.</p>';
  const link = (name: string) =>
    linkAnchors ? `<a href="${linkFrom(path, sitePaths.anchor(name))}">${escapeHtml(name)}</a>` : escapeHtml(name);
  const rows = state.anchors.map((anchor) => {
    const verdict = anchor.ok ? 'valid' : `BAD: ${anchor.reason ?? 'does not verify'}`;
    return `<tr data-anchor="${anchor.ok ? 'valid' : 'bad'}"><td class="number">${anchor.seq}</td><td>${escapeHtml(anchor.tsa)}</td><td>${escapeHtml(anchor.genTime ?? '—')}</td><td>${escapeHtml(verdict)}</td><td>${anchor.files.map(link).join(' ')}</td></tr>`;
  });
  const roots = linkAnchors
    ? `<p>The roots the tokens were checked against: <a href="${linkFrom(path, sitePaths.anchor(rootsFile))}">${rootsFile}</a> (<code>openssl ts -verify -data &lt;seq&gt;.json -in &lt;token&gt;.tsr -CAfile ${rootsFile}</code>, docs/ledger.md).</p>`
    : '';
  return `${roots}<div class="scroll"><table><thead><tr><th class="number">head seq</th><th>TSA</th><th>time (the TSA's)</th><th>verdict</th><th>files</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function recordsTable(state: LedgerState): string {
  const records = state.report?.verified ?? [];
  const anchoredBy = state.report?.anchoredBy;
  return tableHtml({
    key: 'records',
    columns: ['seq', 'recorded', 'ticker', 'call', 'as of', 'mode', 'label', 'status', 'signed', 'anchored', 'run'].map(
      (label) => ({ key: label, label, numeric: label === 'seq' }),
    ),
    rows: records.map((record) => [
      String(record.seq),
      record.recordedAt.replace(/\.\d+Z$/, 'Z'),
      record.ticker,
      `${record.decision.action} ${Math.round(record.decision.conviction)}`,
      record.asOf.slice(0, 10),
      record.demo ? 'demo' : record.asOfMode,
      record.contamination,
      record.status,
      record.sig ? 'yes' : 'no',
      anchoredBy?.has(record.seq) ? `yes (${anchoredBy.get(record.seq)!.genTime.replace(/\.\d+Z$/, 'Z')})` : 'not yet',
      record.runId,
    ]),
  });
}

export function ledgerPage(state: LedgerState, context: SiteContext, exported: boolean): string {
  const path = sitePaths.ledger;
  const body = [
    `<h1>${context.demo ? 'Demo ledger' : 'Ledger'}</h1>`,
    `<p class="meta">The hash-chained record of every saved decision (docs/ledger.md)${context.demo ? ': the demo runs keep their own' : ''}.</p>`,
    statusHtml(state),
    exported
      ? `<p>Export: <a href="${linkFrom(path, sitePaths.ledgerExport)}">ledger-export.jsonl</a> — check it anywhere with <code>autohedge ledger verify --ledger ledger-export.jsonl</code>.</p>`
      : '',
    '<h2>Anchors</h2>',
    anchorsHtml(state, path, exported),
    `<h2>Records (${state.report?.verified.length ?? 0})</h2>`,
    recordsTable(state),
  ];
  return sitePage(path, context.demo ? 'Demo ledger' : 'Ledger', body.filter(Boolean).join('\n'), context);
}
