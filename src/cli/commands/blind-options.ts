import { UsageError } from '../../errors.js';
import type { AnalyzeCliOptions } from '../command-table.js';

/**
 * `--blind` and `--samples` against the rest of the command line, before anything runs:
 * a blind run has no web search or MCP tools (a query or a call could name the company),
 * so asking for one is a contradiction, not something to drop in silence.
 */
export function checkBlindAndSamples(
  options: Pick<AnalyzeCliOptions, 'blind' | 'search' | 'mcpConfig' | 'samples' | 'minAgreement' | 'agent' | 'demo'>,
): void {
  if (options.blind && options.search !== undefined && options.search !== 'none') {
    throw new UsageError(
      `--blind turns web search off (a query would name the company): it cannot be combined with --search ${options.search}`,
    );
  }
  if (options.blind && options.mcpConfig !== undefined) {
    throw new UsageError(
      '--blind turns MCP tools off (a call or a result could name the company): it cannot be combined with --mcp-config',
    );
  }
  if (options.samples > 1 && options.agent.length > 0) {
    throw new UsageError("--samples repeats the Director's decision, and --agent runs no Director: choose one");
  }
  if (options.minAgreement !== undefined && options.samples < 2) {
    throw new UsageError('--min-agreement needs --samples 2 or more');
  }
  if (options.demo && (options.blind || options.samples > 1)) {
    throw new UsageError(
      `the demo cassette holds a named run with one decision: ${options.blind ? '--blind' : '--samples'} cannot be combined with --demo (record your own cassette with --record)`,
    );
  }
}
