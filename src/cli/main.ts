import { ExitCode } from '../errors.js';
import { processIo } from './io.js';
import { runCli } from './run-cli.js';

/** How long open sockets (keep-alive) may hold the process after the work is done. */
const exitGraceMs = 2_000;

/**
 * The signals that end a run early, and the exit code (128 + signal number) each gives:
 * Ctrl-C, a dropped ssh session or closed terminal, and `docker stop` / `timeout` / CI
 * cancellation.
 */
const stopSignals = { SIGINT: ExitCode.interrupted, SIGHUP: ExitCode.hangup, SIGTERM: ExitCode.terminated } as const;
type StopSignal = keyof typeof stopSignals;

/**
 * Process entry: Ctrl-C, SIGHUP or SIGTERM aborts the run's signal so in-flight
 * requests stop and what finished is saved as interrupted; a second one exits at once.
 */
export async function main(argv: string[]): Promise<void> {
  const controller = new AbortController();
  let received: StopSignal | null = null;
  for (const name of Object.keys(stopSignals) as StopSignal[]) {
    process.on(name, () => {
      if (received) process.exit(stopSignals[received]);
      received = name;
      controller.abort(new Error('interrupted'));
    });
  }
  // `autohedge … | head` closes the pipe early: that is the reader's choice, not an error.
  // After a hang-up the terminal is gone (EIO): the run is still saved, quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (received === 'SIGHUP' && (error.code === 'EIO' || error.code === 'EPIPE')) return;
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? ExitCode.ok);
      throw error;
    });
  }
  const code = await runCli(argv, processIo(controller.signal));
  process.exitCode = received ? stopSignals[received] : code;
  // Exit once output is flushed; a lingering keep-alive socket must not keep a finished run alive.
  setTimeout(() => process.exit(process.exitCode), exitGraceMs).unref();
}
