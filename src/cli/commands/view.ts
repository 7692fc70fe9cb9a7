import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { errorCode, ExitCode, UsageError } from '../../errors.js';
import { defaultBenchmark, defaultHorizons, defaultSeed } from '../../evaluate/defaults.js';
import { evaluationDocument } from '../../evaluate/document.js';
import { autohedgeHome } from '../../paths.js';
import type { EvaluationDocument } from '../../report/evaluation-page.js';
import { writeBundle } from '../../view/bundle.js';
import { evaluateFromSavedPrices } from '../../view/saved-prices.js';
import { loopbackHosts, startServer } from '../../view/server.js';
import { Site } from '../../view/site.js';
import type { ViewCliOptions } from '../command-table.js';
import type { CliDeps } from '../deps.js';
import type { CliIo } from '../io.js';
import { evaluateSaved } from './evaluate.js';

/**
 * `autohedge view`: the home as a local read-only site (docs/view.md), or with
 * `--bundle <dir>` the same pages written as a static site. The URL is the command's
 * output (stdout); warnings go to stderr. Ctrl-C or SIGTERM closes the server.
 */

/** The demo's offline evaluation, as `evaluate --demo --no-save` makes it: nothing is written. */
async function demoEvaluation(io: CliIo, deps: CliDeps, argv: string[]): Promise<EvaluationDocument> {
  const quiet: CliIo = { ...io, stderr: () => undefined, stdout: () => undefined };
  const outcome = await evaluateSaved(
    [],
    {
      horizon: [...defaultHorizons],
      benchmark: defaultBenchmark,
      seed: defaultSeed,
      includeDemo: false,
      demo: true,
      quiet: true,
      since: undefined,
      record: undefined,
      replay: undefined,
    },
    quiet,
    deps,
    argv,
  );
  if ('misses' in outcome) throw new Error(`the demo evaluation missed its recording: ${outcome.misses.join('; ')}`);
  return evaluationDocument(outcome.view);
}

function openBrowser(url: string, io: CliIo): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => io.stderr(`autohedge: could not open a browser (${command}); open ${url} yourself\n`));
    child.unref();
  } catch {
    io.stderr(`autohedge: could not open a browser; open ${url} yourself\n`);
  }
}

function waitForStop(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolveStop) => {
    if (!signal) return;
    if (signal.aborted) return resolveStop();
    signal.addEventListener('abort', () => resolveStop(), { once: true });
  });
}

export async function viewCommand(options: ViewCliOptions, io: CliIo, deps: CliDeps, argv: string[]): Promise<number> {
  const home = autohedgeHome(io.env);
  const site = new Site({
    home,
    demo: options.demo,
    live: options.bundle === undefined,
    computeEvaluation: () =>
      options.demo ? demoEvaluation(io, deps, argv) : evaluateFromSavedPrices(home, deps.now?.() ?? new Date()),
    ...(deps.now ? { now: deps.now } : {}),
  });
  if (options.bundle !== undefined) {
    const target = resolve(io.cwd, options.bundle);
    const written = await writeBundle(site, target);
    io.stderr(`autohedge: wrote ${written.length} file(s) of the site to ${target}; open index.html\n`);
    io.stdout(`${target}\n`);
    return ExitCode.ok;
  }
  const host = options.host.trim();
  if (!loopbackHosts.has(host))
    io.stderr(
      `autohedge: warning: listening on ${host}, not loopback: anyone who can reach this address can read your runs, the ledger and the track record\n`,
    );
  const running = await startServer(site, host, options.port).catch((error: unknown) => {
    const code = errorCode(error);
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`cannot listen on ${host}:${options.port} (${code}): choose another --port or --host`);
    throw error;
  });
  io.stdout(`${running.url}\n`);
  io.stderr(
    `autohedge: serving ${home}${options.demo ? ' (demo runs)' : ''} read-only at ${running.url}; Ctrl-C stops\n`,
  );
  if (options.open) openBrowser(running.url, io);
  await waitForStop(io.signal);
  await running.close();
  return ExitCode.ok;
}
