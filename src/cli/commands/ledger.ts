import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../atomic-write.js';
import { ExitCode, UsageError } from '../../errors.js';
import { readLedgerFile, verifyHomeLedger, verifyLedgerFile, type VerifyReport } from '../../ledger/check.js';
import { LedgerError } from '../../ledger/errors.js';
import { exportText } from '../../ledger/export-file.js';
import { loadPublicKey, writeKeyPair } from '../../ledger/key-files.js';
import { readKeyState, rememberKey } from '../../ledger/key-state.js';
import { pinnedTrustedRoots, rootsFromPemFile, trustedRoots, uniqueRoots } from '../../ledger/anchor/roots.js';
import { readAnchorItems } from '../../ledger/anchor/store.js';
import { writeAnchorFiles } from '../../ledger/anchor/export-files.js';
import { completeTail } from '../../ledger/verify.js';
import { ledgerPaths, type LedgerPaths } from '../../ledger/paths.js';
import type { LedgerRecord } from '../../ledger/record.js';
import { autohedgeHome } from '../../paths.js';
import { renderTable } from '../../report/table.js';
import { sanitizeDeep, sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../options.js';

/**
 * `autohedge ledger verify|list|head|export|keygen`: the sealed decision ledger of
 * $AUTOHEDGE_HOME (see docs/ledger.md). verify exits 0 when the chain is intact, 1 when
 * it is broken, 2 on a usage problem (a missing file, a bad flag).
 */

const hash = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => /^[0-9a-f]{64}$/.test(value), { error: '--head must be a record hash: 64 hex digits' });

const verifyOptionsSchema = z.object({
  ledger: z.string().min(1).optional(),
  publicKey: z.string().min(1).optional(),
  head: hash.optional(),
  runs: z.boolean().default(false),
  json: z.boolean().default(false),
  demo: z.boolean().default(false),
  tsaCert: z.array(z.string().min(1)).default([]),
});

const listOptionsSchema = z.object({ json: z.boolean().default(false), demo: z.boolean().default(false) });

const listFileOptionsSchema = listOptionsSchema.extend({
  ledger: z.string().min(1).optional(),
  publicKey: z.string().min(1).optional(),
});

/**
 * A key read from the file's own header proves only that the file is consistent with itself:
 * whoever could edit the records could replace the key (#44 item 33).
 */
function selfKeyNote(report: VerifyReport, io: CliIo): void {
  if (report.signatures.source !== 'export') return;
  io.stderr(
    `autohedge: note: the signatures were checked with the public key in the file's own header (key ${report.signatures.keyId}); such a key is only as trustworthy as the file: compare its id with one its owner published, or pass --public-key\n`,
  );
}

function pathsOf(io: CliIo, demo: boolean): LedgerPaths {
  return ledgerPaths(autohedgeHome(io.env), { demo });
}

/**
 * After the quick start only the demo ledger has records: a missing (or empty) home ledger
 * says where they are and names --demo, rather than only "no ledger at …" (#44 item 9).
 */
async function demoHinted<T>(io: CliIo, demo: boolean, command: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (demo || !(error instanceof LedgerError) || error.kind !== 'missing') throw error;
    if (!existsSync(pathsOf(io, true).file)) throw error;
    throw new LedgerError(
      `${error.message}; the demo's decisions are in the demo ledger: \`autohedge ledger ${command} --demo\``,
      'missing',
    );
  }
}

export async function ledgerVerifyCommand(rawOptions: object, io: CliIo): Promise<number> {
  const options = parseOptions(verifyOptionsSchema, rawOptions);
  const home = autohedgeHome(io.env);
  const paths = ledgerPaths(home, { demo: options.demo });
  const file = options.ledger ? resolve(io.cwd, options.ledger) : paths.file;
  const key = options.publicKey ? await loadPublicKey(resolve(io.cwd, options.publicKey), true) : null;
  // The home's own key is used for the home's own ledger; a file from elsewhere carries its key.
  const homeKey = !options.ledger && !key ? await loadPublicKey(paths.publicKey, false) : null;
  const given = (await Promise.all(options.tsaCert.map((pem) => rootsFromPemFile(resolve(io.cwd, pem))))).flat();
  const keyState = options.ledger ? null : await readKeyState(paths);
  const roots = options.ledger
    ? uniqueRoots([...pinnedTrustedRoots(), ...given])
    : await trustedRoots(paths.anchors, given);
  const report = await demoHinted(io, options.demo || options.ledger !== undefined, 'verify', () =>
    verifyLedgerFile({
      file,
      key,
      homeKey,
      keyState,
      head: options.head ?? null,
      runsHome: verifyRuns(options.runs) ? home : null,
      // A file from elsewhere is checked against the pinned roots and those given, never the home's own.
      anchorsDirectory: options.ledger ? null : paths.anchors,
      roots,
    }),
  );
  if (options.json) io.stdout(`${stringifyJsonSafely(verifyJson(report), 2)}\n`);
  else io.stdout(verifyText(report, file) + anchorsText(report));
  selfKeyNote(report, io);
  return report.ok ? ExitCode.ok : ExitCode.failed;
}

function verifyJson(report: VerifyReport): object {
  const { verified, anchoredBy, ...shown } = report;
  const recordAnchors = verified.map((record) => {
    const anchor = anchoredBy.get(record.seq);
    return {
      seq: record.seq,
      recordedAt: record.recordedAt,
      anchoredBy: anchor ? { seq: anchor.seq, genTime: anchor.genTime } : null,
    };
  });
  return { ...shown, recordAnchors };
}

/** The anchors' lines: each token's verdict, a clock that lied, the records not yet anchored. */
function anchorsText(report: VerifyReport): string {
  const lines = report.anchors.map((anchor) =>
    anchor.ok
      ? `  anchor seq ${anchor.seq} by ${anchor.tsa}: genTime ${anchor.genTime}`
      : `  anchor seq ${anchor.seq} by ${anchor.tsa}: BAD — ${sanitizeText(anchor.reason ?? 'invalid')}`,
  );
  for (const lie of report.clockLied)
    lines.push(
      `  seq ${lie.seq}: recordedAt ${lie.recordedAt} is later than the anchor covering it (${lie.genTime}): the writer's clock lied`,
    );
  const unanchored = report.verified.filter((record) => !report.anchoredBy.has(record.seq)).map((record) => record.seq);
  if (unanchored.length > 0) {
    const range = unanchored.length > 1 ? `${unanchored[0]}–${unanchored[unanchored.length - 1]}` : `${unanchored[0]}`;
    lines.push(`  ${unanchored.length} record(s) not yet anchored (seq ${range}; \`autohedge ledger anchor\`)`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function verifyText(report: VerifyReport, file: string): string {
  const lines: string[] = [];
  if (report.firstBad) {
    const { seq, reason, message } = report.firstBad;
    lines.push(`ledger BROKEN at seq ${seq}: ${reason} — ${sanitizeText(message)}`);
    lines.push(`  ${file}: ${report.verified.length} of ${report.records} records verify before it`);
  } else {
    lines.push(`ledger intact: ${report.records} record(s), head ${report.head ?? '(none)'}`);
    const { keyId, unsignedBefore } = report.signatures;
    if (keyId)
      lines.push(
        `  signed by key ${keyId}${unsignedBefore > 0 ? ` from seq ${unsignedBefore} (earlier records predate the key)` : ''}`,
      );
    else lines.push('  signatures not checked (no public key)');
  }
  if (report.unterminated)
    lines.push(
      '  the last record had lost its newline (an editor?): it is complete and counts; the next append adds the newline',
    );
  if (report.torn)
    lines.push(
      `  torn last line at seq ${report.torn.seq} (${report.torn.bytes} bytes): a crash mid-append, not tampering; the next append moves it to ledger.torn-<time>`,
    );
  return `${lines.join('\n')}\n`;
}

/** The records that verify; a broken chain is said on stderr and exits 1 after listing what holds. */
async function readVerified(io: CliIo, demo: boolean): Promise<VerifyReport> {
  const report = await verifyHomeLedger(pathsOf(io, demo));
  if (report.firstBad)
    io.stderr(
      `autohedge: warning: ledger broken at seq ${report.firstBad.seq} (${report.firstBad.reason}); run \`autohedge ledger verify\`\n`,
    );
  return report;
}

export async function ledgerListCommand(rawOptions: object, io: CliIo): Promise<number> {
  const options = parseOptions(listFileOptionsSchema, rawOptions);
  const report = options.ledger
    ? await readExported(io, options.ledger, options.publicKey)
    : await demoHinted(io, options.demo, 'list', () => readVerified(io, options.demo));
  if (options.json) io.stdout(`${stringifyJsonSafely(report.verified, 2)}\n`);
  else if (report.verified.length === 0) io.stderr('autohedge: the ledger has no records yet\n');
  else io.stdout(recordTable(report.verified));
  return report.ok ? ExitCode.ok : ExitCode.failed;
}

/** A ledger file from elsewhere (an export): checked as `verify --ledger` checks it, then listed up to its first bad record. */
async function readExported(io: CliIo, ledger: string, publicKey: string | undefined): Promise<VerifyReport> {
  const file = resolve(io.cwd, ledger);
  const key = publicKey ? await loadPublicKey(resolve(io.cwd, publicKey), true) : null;
  const report = await verifyLedgerFile({ file, key, roots: pinnedTrustedRoots() });
  if (report.firstBad)
    io.stderr(
      `autohedge: warning: ${ledger} is broken at seq ${report.firstBad.seq} (${report.firstBad.reason}); only the records before it are listed (\`autohedge ledger verify --ledger ${ledger}\`)\n`,
    );
  selfKeyNote(report, io);
  return report;
}

function recordTable(records: readonly LedgerRecord[]): string {
  // The records are a file on disk: whatever it holds is sanitised before a terminal sees it.
  const rows = sanitizeDeep(records).map((record) => [
    String(record.seq),
    record.recordedAt.replace(/\.\d+Z$/, 'Z'),
    record.ticker,
    record.decision.action,
    String(Math.round(record.decision.conviction)),
    record.asOf.slice(0, 10),
    // A demo record is synthetic, whatever clock it ran on: its mode says so (#44 item 21).
    record.demo ? 'demo' : record.asOfMode,
    record.contamination,
    record.runId,
  ]);
  return renderTable(['SEQ', 'RECORDED', 'TICKER', 'ACTION', 'CONV', 'AS OF', 'MODE', 'LABEL', 'RUN ID'], rows);
}

export async function ledgerHeadCommand(rawOptions: object, io: CliIo): Promise<number> {
  const options = parseOptions(listOptionsSchema, rawOptions);
  const report = await demoHinted(io, options.demo, 'head', () => readVerified(io, options.demo));
  if (!report.ok) return ExitCode.failed;
  const last = report.verified[report.verified.length - 1];
  if (!last)
    return demoHinted(io, options.demo, 'head', () => {
      throw new LedgerError('the ledger has no records yet: there is no head to publish', 'missing');
    });
  if (options.json)
    io.stdout(
      `${stringifyJsonSafely({ seq: last.seq, hash: last.hash, recordedAt: last.recordedAt, records: report.records }, 2)}\n`,
    );
  else io.stdout(`${last.hash}\n`);
  return ExitCode.ok;
}

export async function ledgerExportCommand(target: string, rawOptions: object, io: CliIo): Promise<number> {
  const options = parseOptions(listOptionsSchema.omit({ json: true }), rawOptions);
  const paths = pathsOf(io, options.demo);
  const key = await loadPublicKey(paths.publicKey, false);
  const report = await demoHinted(io, options.demo, `export ${target}`, () => verifyHomeLedger(paths));
  if (report.firstBad) {
    io.stderr(
      `autohedge: the ledger is broken at seq ${report.firstBad.seq} (${report.firstBad.reason}); nothing exported (see \`autohedge ledger verify\`)\n`,
    );
    return ExitCode.failed;
  }
  // A key that has signed nothing yet (made after every record so far) would fail every check of the export.
  const signing = key && report.verified.some((record) => record.sig !== undefined) ? key : null;
  const publicPem = signing ? await readFile(paths.publicKey, 'utf8') : null;
  // Only the anchors that verify over this chain travel: a stranger gets nothing we could not check.
  const good = new Set(report.anchors.filter((anchor) => anchor.ok).map((anchor) => `${anchor.seq}.${anchor.tsa}`));
  const items = (await readAnchorItems(paths.anchors)).filter((item) => good.has(`${item.seq}.${item.tsa}`));
  const roots = await trustedRoots(paths.anchors);
  const text = exportText(
    await recordLines(paths.file, report.verified.length),
    publicPem && signing ? { publicPem, keyId: signing.keyId } : null,
    report.head,
    new Date(),
    { items, roots: roots.map((root) => root.pem) },
  );
  const file = resolve(io.cwd, target);
  await writeFileAtomic(file, text);
  if (items.length > 0) {
    const directory = await writeAnchorFiles(`${file}.anchors`, items, roots);
    io.stderr(
      `autohedge: ${items.length} anchor token(s) and the TSA roots in ${directory} (for \`openssl ts -verify\`)\n`,
    );
  }
  const keyNote = signing
    ? ` and public key ${signing.keyId}`
    : key
      ? ` (unsigned: key ${key.keyId} has signed no record yet)`
      : ' (unsigned: no key)';
  io.stderr(
    `autohedge: exported ${report.verified.length} record(s)${keyNote} to ${file}; check it with \`autohedge ledger verify --ledger ${target}\`\n`,
  );
  return ExitCode.ok;
}

/** The first `count` records of the ledger, byte for byte: an export copies records, it does not re-serialise them. */
async function recordLines(file: string, count: number): Promise<string[]> {
  return completeTail(await readLedgerFile(file)).ledger.lines.slice(0, count);
}

export async function ledgerKeygenCommand(options: object, io: CliIo): Promise<number> {
  const paths = pathsOf(io, false);
  const { keyId } = await writeKeyPair(paths);
  // Remembered at once: from the next record on, every record must carry this key's signature.
  const records = await readLedgerFile(paths.file).then(
    (ledger) => completeTail(ledger).ledger.lines.length,
    () => 0,
  );
  await rememberKey(paths, { keyId, signedFrom: records });
  io.stdout(`${keyId}\n`);
  io.stderr(
    `autohedge: Ed25519 key ${keyId}: private ${paths.privateKey} (mode 0600, keep it secret), public ${paths.publicKey}; records appended from now on are signed\n`,
  );
  return ExitCode.ok;
}

/** `autohedge ledger` alone: which subcommands there are (exit 2, as for any incomplete command line). */
export async function ledgerUsageCommand(options: object, io: CliIo): Promise<number> {
  io.stderr('autohedge: ledger needs a subcommand: verify, list, head, export or keygen (autohedge ledger --help)\n');
  return ExitCode.usage;
}

/** `ledger verify --runs` is a switch: run ids belong to other commands. */
function verifyRuns(runs: boolean | string[] | undefined): boolean {
  if (Array.isArray(runs) && runs.length > 0)
    throw new UsageError('ledger verify --runs takes no value: it checks every recorded run');
  return runs !== undefined && runs !== false;
}
