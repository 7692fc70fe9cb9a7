import { execFile } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { ExitCode, UsageError } from '../../errors.js';
import { anchorHead } from '../../ledger/anchor/anchor.js';
import { rootsFromPemFile } from '../../ledger/anchor/roots.js';
import { tsaUrlsOf } from '../../ledger/anchor/settings.js';
import { verifyHomeLedger } from '../../ledger/check.js';
import { LedgerError } from '../../ledger/errors.js';
import { canonicalJson } from '../../ledger/record.js';
import { ledgerPaths } from '../../ledger/paths.js';
import { autohedgeHome } from '../../paths.js';
import { sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../options.js';

/**
 * `autohedge ledger anchor` (RFC 3161 time-stamps of the head, docs/ledger.md) and
 * `ledger publish --git <dir>` (the anchored heads into a public history).
 */

const anchorOptionsSchema = z.object({
  tsa: z.array(z.string()).default([]),
  tsaCert: z.array(z.string().min(1)).default([]),
  demo: z.boolean().default(false),
  json: z.boolean().default(false),
});

export async function ledgerAnchorCommand(rawOptions: object, io: CliIo): Promise<number> {
  const options = parseOptions(anchorOptionsSchema, rawOptions);
  const paths = ledgerPaths(autohedgeHome(io.env), { demo: options.demo });
  const extraRoots = (await Promise.all(options.tsaCert.map((file) => rootsFromPemFile(resolve(io.cwd, file))))).flat();
  const outcome = await anchorHead({ paths, urls: tsaUrlsOf(options.tsa, io.env), extraRoots });
  for (const failure of outcome.failed)
    io.stderr(
      `autohedge: warning: TSA ${failure.tsa} (${sanitizeText(failure.url)}) failed: ${sanitizeText(failure.message)}\n`,
    );
  if (options.json) io.stdout(`${stringifyJsonSafely(outcome, 2)}\n`);
  else if (outcome.already) io.stdout(`seq ${outcome.seq} ${outcome.hash}: already anchored by every TSA asked\n`);
  else {
    for (const tsa of outcome.stampedBefore)
      io.stdout(`seq ${outcome.seq} ${outcome.hash}: ${tsa} (anchored before)\n`);
    for (const stamp of outcome.stamped)
      io.stdout(`seq ${outcome.seq} ${outcome.hash}: ${stamp.tsa} ${stamp.genTime}\n`);
  }
  // A head a TSA stamped before is anchored: one down now is a warning, not a failure.
  if (outcome.stamped.length === 0 && outcome.stampedBefore.length === 0) {
    io.stderr('autohedge: no TSA anchored the head; nothing was stored\n');
    return ExitCode.failed;
  }
  return ExitCode.ok;
}

const publishOptionsSchema = z.object({ git: z.string().min(1), demo: z.boolean().default(false) });

const run = promisify(execFile);

async function git(directory: string, ...args: string[]): Promise<string> {
  try {
    return (await run('git', ['-C', directory, ...args])).stdout;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new LedgerError(`git ${args[0]} in ${directory} failed: ${detail}`, 'invalid');
  }
}

/** The file in the public repository: one line per anchored head, appended, never rewritten. */
export const publishedFileName = 'autohedge-anchors.jsonl';

export async function ledgerPublishCommand(rawOptions: object, io: CliIo): Promise<number> {
  const options = parseOptions(publishOptionsSchema, rawOptions);
  const directory = resolve(io.cwd, options.git);
  if ((await git(directory, 'rev-parse', '--is-inside-work-tree')).trim() !== 'true')
    throw new UsageError(`${directory} is not a git work tree`);
  const report = await verifyHomeLedger(ledgerPaths(autohedgeHome(io.env), { demo: options.demo }));
  if (report.firstBad) {
    io.stderr(
      `autohedge: the ledger is broken at seq ${report.firstBad.seq} (${report.firstBad.reason}); nothing published\n`,
    );
    return ExitCode.failed;
  }
  const file = join(directory, publishedFileName);
  const known = new Set((await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean));
  const lines = report.anchors
    .filter((anchor) => anchor.ok && anchor.genTime !== null)
    .map((anchor) =>
      canonicalJson({
        seq: anchor.seq,
        hash: report.verified[anchor.seq]!.hash,
        genTime: anchor.genTime,
        tsa: anchor.tsa,
      }),
    )
    .filter((line) => !known.has(line));
  if (lines.length === 0) {
    io.stderr('autohedge: no anchored head to publish that is not there already (run `autohedge ledger anchor`)\n');
    return ExitCode.ok;
  }
  await appendFile(file, lines.map((line) => `${line}\n`).join(''));
  await git(directory, 'add', publishedFileName);
  await git(directory, 'commit', '-q', '-m', `autohedge: ${lines.length} anchored ledger head(s)`);
  io.stdout(`git -C ${directory} push\n`);
  io.stderr(`autohedge: committed ${lines.length} anchored head(s) to ${file}; push it to make them public\n`);
  return ExitCode.ok;
}
