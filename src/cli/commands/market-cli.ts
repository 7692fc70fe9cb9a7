import { resolveAsOf } from '../../market/as-of.js';
import { validateTicker } from '../../market/ticker.js';
import { ExitCode, UsageError } from '../../errors.js';
import { colorEnabled, type CliIo } from '../io.js';
import type { CliDeps } from '../deps.js';
import { buildServices } from '../services.js';

/** `autohedge market <ticker>`: wires options and services to the market command. */
export async function marketCliCommand(rawTicker: string, options: Record<string, unknown>, io: CliIo, deps: CliDeps, argv: string[]): Promise<number> {
  const ticker = validateTicker(rawTicker);
  const record = typeof options.record === 'string' ? options.record : undefined;
  const replay = typeof options.replay === 'string' ? options.replay : undefined;
  if (record && replay) throw new UsageError('--record and --replay cannot be combined');
  const asOfOption = options.asOf;
  if (asOfOption !== undefined && typeof asOfOption !== 'string') throw new UsageError('--as-of needs a date as YYYY-MM-DD');
  const historical = asOfOption !== undefined ? resolveAsOf(asOfOption, deps.now?.() ?? new Date()) : null;
  const session = await buildServices(
    { env: io.env, cwd: io.cwd, record, replay, refresh: Boolean(options.refresh), argv, needsModel: false, warn: (message) => io.stderr(`autohedge: warning: ${message}\n`) },
    deps,
  );
  try {
    const { marketCommand } = await import('./market.js');
    await marketCommand(
      ticker,
      { json: Boolean(options.json), refresh: Boolean(options.refresh), historical: historical !== null },
      {
        market: session.market,
        asOf: historical?.close ?? session.asOf(),
        stdout: io.stdout,
        stderr: io.stderr,
        color: colorEnabled(io.env, io.stdoutIsTTY),
        isTTY: io.stdoutIsTTY,
        columns: io.columns,
        signal: io.signal,
      },
    );
    await session.finish(io);
    return 0;
  } catch (error) {
    // Every request the cassette could not answer, one line each, rather than the first symptom.
    const misses = session.replayMisses();
    if (misses.length === 0) throw error;
    for (const miss of misses) io.stderr(`autohedge: ${miss}\n`);
    return ExitCode.usage;
  } finally {
    await session.close();
  }
}
