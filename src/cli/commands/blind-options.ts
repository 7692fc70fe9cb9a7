import { UsageError } from '../../errors.js';
import { blindAndSamplesProblems } from '../../run/request.js';
import type { AnalyzeCliOptions } from '../command-table.js';

/**
 * `--blind` and `--samples` against the rest of the command line, before anything runs
 * (the request checks the same: src/run/request.ts); the demo cassette holds a named run
 * with one decision, so neither goes with --demo.
 */
export function checkBlindAndSamples(
  options: Pick<AnalyzeCliOptions, 'blind' | 'search' | 'mcpConfig' | 'samples' | 'minAgreement' | 'agent' | 'demo'>,
): void {
  const [problem] = blindAndSamplesProblems({ ...options, agents: options.agent });
  if (problem !== undefined) throw new UsageError(problem);
  if (options.demo && (options.blind || options.samples > 1)) {
    throw new UsageError(
      `the demo cassette holds a named run with one decision: ${options.blind ? '--blind' : '--samples'} cannot be combined with --demo (record your own cassette with --record)`,
    );
  }
}
