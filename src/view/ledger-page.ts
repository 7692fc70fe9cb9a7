import { z } from 'zod';
import { readLedgerFile, verifyLedgerFile, type VerifyReport } from '../ledger/check.js';
import { LedgerError } from '../ledger/errors.js';
import { exportText } from '../ledger/export-file.js';
import { loadPublicKey } from '../ledger/key-files.js';
import { ledgerPaths } from '../ledger/paths.js';
import type { LedgerRecord } from '../ledger/record.js';
import { escapeHtml } from '../report/escape.js';
import { tableHtml } from '../report/html-blocks.js';
import type { HomeFiles } from './home-files.js';
import { sitePage, type SiteContext } from './layout.js';
import { linkFrom, sitePaths } from './links.js';

/**
 * The ledger page: whether the chain verifies, its head, its signatures, the records,
 * and the anchors (RFC 3161 timestamps under the ledger's `anchors/` folder) when there
 * are any. The anchors are read defensively, by what a file says of itself: a JSON
 * file that names the record it covers (`seq`, `records`, or the `head`/`hash` of a
 * record) counts; any other file is listed by name and size. Records after the last
 * anchored one are "not yet anchored". Read-only: the ledger's own verifier, no repair.
 */

export interface AnchorFile {
  name: string;
  bytes: number;
  /** The last record it covers, when it says. */
  seq: number | null;
  time: string | null;
}

export interface LedgerState {
  file: string;
  report: VerifyReport | null;
  /** Why the ledger could not be read (absent, unreadable), when it could not. */
  problem: string | null;
  anchors: AnchorFile[];
  lastAnchoredSeq: number | null;
}

const anchorSchema = z.looseObject({
  seq: z.number().int().min(0).optional().catch(undefined),
  records: z.number().int().min(1).optional().catch(undefined),
  head: z.string().optional().catch(undefined),
  hash: z.string().optional().catch(undefined),
  time: z.string().optional().catch(undefined),
  genTime: z.string().optional().catch(undefined),
  anchoredAt: z.string().optional().catch(undefined),
});

function anchorSegments(demo: boolean): string[] {
  return ['ledger', ...(demo ? ['demo'] : []), 'anchors'];
}

function coveredSeq(raw: z.infer<typeof anchorSchema>, records: readonly LedgerRecord[]): number | null {
  if (raw.seq !== undefined) return raw.seq;
  if (raw.records !== undefined) return raw.records - 1;
  const hash = raw.head ?? raw.hash;
  return hash ? (records.find((record) => record.hash === hash)?.seq ?? null) : null;
}

async function readAnchors(files: HomeFiles, demo: boolean, records: readonly LedgerRecord[]): Promise<AnchorFile[]> {
  const folder = anchorSegments(demo);
  const names = await files.list(folder, 'files');
  const anchors: AnchorFile[] = [];
  for (const name of names) {
    const bytes = await files.read([...folder, name]);
    if (bytes === null) continue;
    let seq: number | null = null;
    let time: string | null = null;
    if (name.endsWith('.json')) {
      try {
        const parsed = anchorSchema.safeParse(JSON.parse(bytes.toString('utf8')));
        if (parsed.success) {
          seq = coveredSeq(parsed.data, records);
          time = parsed.data.time ?? parsed.data.genTime ?? parsed.data.anchoredAt ?? null;
        }
      } catch {
        // Not JSON after all: listed by name and size.
      }
    }
    anchors.push({ name, bytes: bytes.length, seq, time });
  }
  return anchors;
}

export async function readLedgerState(files: HomeFiles, demo: boolean): Promise<LedgerState> {
  const paths = ledgerPaths(files.home, { demo });
  let report: VerifyReport | null = null;
  let problem: string | null = null;
  try {
    report = await verifyLedgerFile({ file: paths.file, homeKey: await loadPublicKey(paths.publicKey, false) });
  } catch (error) {
    problem =
      error instanceof LedgerError && error.kind === 'missing'
        ? `no ledger yet${demo ? ' for the demo' : ''}: a saved run with a decision starts it`
        : `the ledger cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  const anchors = await readAnchors(files, demo, report?.verified ?? []);
  const covered = anchors.flatMap((anchor) => (anchor.seq === null ? [] : [anchor.seq]));
  return {
    file: paths.file,
    report,
    problem,
    anchors,
    lastAnchoredSeq: covered.length > 0 ? Math.max(...covered) : null,
  };
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
        : `${state.anchors.length} file(s); last anchored seq ${state.lastAnchoredSeq ?? 'unknown'}`,
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
  const records = state.report?.verified ?? [];
  return state.lastAnchoredSeq === null ? records : records.filter((record) => record.seq > state.lastAnchoredSeq!);
}

function anchorsHtml(state: LedgerState, path: string, linkAnchors: boolean): string {
  if (state.anchors.length === 0) return '<p class="meta">No anchors under the ledger’s anchors/ folder.</p>';
  const rows = state.anchors.map((anchor) => {
    const name = linkAnchors
      ? `<a href="${linkFrom(path, sitePaths.anchor(anchor.name))}">${escapeHtml(anchor.name)}</a>`
      : escapeHtml(anchor.name);
    return `<tr><td>${name}</td><td class="number">${anchor.bytes}</td><td class="number">${anchor.seq ?? '—'}</td><td>${escapeHtml(anchor.time ?? '—')}</td></tr>`;
  });
  return `<div class="scroll"><table><thead><tr><th>file</th><th class="number">bytes</th><th class="number">covers to seq</th><th>time</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function recordsTable(state: LedgerState): string {
  const records = state.report?.verified ?? [];
  const last = state.lastAnchoredSeq;
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
      last !== null && record.seq <= last ? 'yes' : 'not yet',
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
