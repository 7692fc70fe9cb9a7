import { ExitCode } from '../errors.js';
import { processIo } from './io.js';
import { runCli } from './run-cli.js';

/** How long open sockets (keep-alive) may hold the process after the work is done. */
const exitGraceMs = 2_000;

/**
 * Process entry: Ctrl-C aborts the run's signal so in-flight requests stop and
 * what finished is saved; a second Ctrl-C exits at once.
 */
export async function main(argv: string[]): Promise<void> {
  const controller = new AbortController();
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(ExitCode.interrupted);
    interrupted = true;
    controller.abort(new Error('interrupted'));
  });
  // `autohedge … | head` closes the pipe early: that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? ExitCode.ok);
      throw error;
    });
  }
  const code = await runCli(argv, processIo(controller.signal));
  process.exitCode = interrupted ? ExitCode.interrupted : code;
  // Exit once output is flushed; a lingering keep-alive socket must not keep a finished run alive.
  setTimeout(() => process.exit(process.exitCode), exitGraceMs).unref();
}
