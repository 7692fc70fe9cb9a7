import { ExitCode } from '../errors.js';
import { processIo } from './io.js';
import { runCli } from './run-cli.js';

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
  const code = await runCli(argv, processIo(controller.signal));
  process.exitCode = interrupted ? ExitCode.interrupted : code;
}
