import { CassetteError, ExitCode } from '../../errors.js';
import { renderProbe } from '../../probe/compare.js';
import { runProbe } from '../../probe/run-probe.js';
import { resolveRunClock } from '../../run/as-of.js';
import { scopeCap } from '../../run/cap.js';
import { parseRunRequest } from '../../run/request.js';
import { stringifyJsonSafely } from '../../sanitize.js';
import { validateTicker } from '../../market/ticker.js';
import type { ProbeCliOptions } from '../command-table.js';
import type { CliDeps } from '../deps.js';
import { exitCodeForStatus, formatError, worstExitCode } from '../exit.js';
import { colorEnabled, type CliIo } from '../io.js';
import { createProgress } from '../progress.js';
import { redactingIo } from '../redact.js';
import { openSession } from '../request-session.js';
import { requestFromFlags } from '../run-request-flags.js';
import { checkPricesKnown } from './analyze.js';

/**
 * `autohedge probe <ticker>`: did the model read the data or remember the stock? One
 * named and one blind run of the same ticker and day over one market fetch, both with no
 * web search or MCP tools (so the name is the only difference), each saved like any run
 * (runAndSave), then compared side by side.
 */
export async function probeCommand(
  rawTicker: string,
  options: ProbeCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  const ticker = validateTicker(rawTicker);
  const request = parseRunRequest({ ...requestFromFlags(options, 'none'), ticker });
  // Before any client exists: a closed or future day is the user's to fix, with no request made.
  resolveRunClock(request, deps.now?.() ?? new Date(), () => new Date());
  const session = await openSession(request, io, { ...deps, search: null }, argv);
  try {
    if (options.maxCost !== undefined) checkPricesKnown(options.model, undefined, session, 'none');
    const safeIo = redactingIo(io, session.secrets);
    const progress = await createProgress({
      write: safeIo.stderr,
      live: false,
      quiet: options.quiet,
      color: colorEnabled(io.env, io.stderrIsTTY),
      secrets: session.secrets,
    });
    // One cap for both runs: the probe is one command.
    const scope = { cap: scopeCap(request.maxCostUsd, session), ...(io.signal ? { signal: io.signal } : {}) };
    const sinksFor = (kind: 'named' | 'blind') => ({
      events: progress.sink(kind === 'named' ? ticker : `${ticker} blind`),
      warn: (message: string) => safeIo.stderr(`autohedge: warning: ${message}\n`),
      info: (message: string) => {
        if (!options.quiet) safeIo.stderr(`${message}\n`);
      },
    });
    const outcome = await runProbe(request, session, sinksFor, scope);
    progress.stop();
    const misses = session.replayMisses();
    for (const miss of misses) safeIo.stderr(`${formatError(new CassetteError(miss), false)}\n`);
    safeIo.stdout(options.json ? `${stringifyJsonSafely(outcome.comparison, 2)}\n` : renderProbe(outcome.comparison));
    await session.finish(safeIo);
    const code = worstExitCode([exitCodeForStatus(outcome.named.status), exitCodeForStatus(outcome.blind.status)]);
    return misses.length > 0 && code !== ExitCode.interrupted ? ExitCode.usage : code;
  } finally {
    await session.close();
  }
}
