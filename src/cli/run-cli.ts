import { createRequire } from 'node:module';
import { ExitCode } from '../errors.js';
import { packageVersion } from '../paths.js';
import { exitCodeFor, formatCommanderError, formatError, isCommanderError } from './exit.js';
import type { CliIo } from './io.js';
import { sanitizeText } from '../sanitize.js';
import { redactingIo, secretsOf } from './redact.js';
import type { CliDeps } from './deps.js';
import type { CommanderError as CommanderErrorType } from 'commander';

// commander is CommonJS: required directly, it skips the ESM wrapper and the scan of its
// exports that `import` costs — about 3 ms of every start-up, a tenth of what `--help`
// adds to a bare `node` (npm run bench, P2). The same classes either way.
const { Command, CommanderError, Option } = createRequire(import.meta.url)('commander') as typeof import('commander');

/**
 * The CLI as a function: parse argv, run one command, return the exit code.
 * bin/autohedge.js is a thin shim around this; tests call it in-process.
 * Command modules are imported only when their command runs, so `--help` stays fast.
 */
export async function runCli(argv: string[], rawIo: CliIo, deps: CliDeps = {}): Promise<number> {
  // Every command's output, usage errors from commander included, is scrubbed alike.
  const io = redactingIo(rawIo, secretsOf(rawIo.env));
  let exitCode: number = ExitCode.ok;
  const verbose = argv.includes('--verbose');
  const program = new Command('autohedge')
    .description('A team of LLM agents that analyses a stock on real market data.')
    .version(packageVersion(), '-V, --version')
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Commander quotes the offending argument, which may hold anything.
      outputError: (text, write) => write(`${sanitizeText(formatCommanderError(text))}\n`),
    })
    .addHelpText(
      'after',
      `
Examples:
  autohedge analyze ACME --demo          a full analysis offline, no keys (synthetic demo data)
  autohedge analyze NVDA                 needs OPENAI_API_KEY (and EXA_API_KEY for news search)
  autohedge analyze NVDA --agent sentiment --trace
  autohedge market NVDA --json
  autohedge analyze NVDA --as-of 2025-06-02 && autohedge evaluate --horizon 5,21

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, EXA_API_KEY, AUTOHEDGE_SEARCH[_MODEL], AUTOHEDGE_MODEL[_<ID>],
AUTOHEDGE_HOME, AUTOHEDGE_STRUCTURED (json_schema|json_object|prompt);
a .env file in the working directory is read.
Exit codes: 0 ok, 1 failed, 2 usage or configuration, 3 degraded, 4 flagged (the decision breaks a
guardrail rule), 130 interrupted (129 SIGHUP, 143 SIGTERM).
Not investment advice: autohedge never places an order.`,
    )
    .exitOverride()
    // Options belong to the command they follow (`runs show <id> --json` is show's --json).
    .enablePositionalOptions();

  const setExit = (code: number) => {
    exitCode = code;
  };

  program
    .command('analyze')
    .description('analyse one or more tickers: Director plan, four desks, decision, guardrails')
    .argument('[tickers...]', 'ticker symbols, e.g. NVDA AAPL (and/or --universe <file>)')
    .addOption(
      new Option('--agent <id>', 'run only this worker on the market data (repeatable; no Director)')
        .argParser(collect)
        .default([]),
    )
    .option('--model <model>', 'model for every agent (else AUTOHEDGE_MODEL, AUTOHEDGE_MODEL_<ID>, defaults)')
    .option('--base-url <url>', 'OpenAI-compatible API base URL (also OPENAI_BASE_URL)')
    .option('--json', 'print the AnalysisResult JSON only (an array for several tickers)')
    .option('--jsonl', 'print one AnalysisResult JSON per line as each ticker finishes')
    .option(
      '--universe <file>',
      'also analyse the tickers in this file (one a line, # comments; or CSV with a ticker/symbol column)',
    )
    .option('--resume', 'skip tickers that already have a finished run for the same as-of day')
    .option('--concurrency <n>', 'tickers analysed at once', '2')
    .option('--max-position <pct>', 'largest position size allowed, % of portfolio', '10')
    .option('--max-risk <pct>', 'largest loss at the stop allowed per trade, % of portfolio', '2')
    .option('--min-reward-risk <ratio>', 'lowest reward/risk a decision may have', '1')
    .option('--max-cost <usd>', 'stop making model calls before the spend would pass this many USD')
    .option(
      '--search <provider>',
      "what backs Sentiment's web search: exa, openai (built-in search) or none (also AUTOHEDGE_SEARCH; default exa)",
    )
    .option('--record <file>', 'record every HTTP exchange of this run to a cassette')
    .option('--replay <file>', 'replay a cassette: no network at all')
    .option('--demo', 'replay the bundled demo cassette (synthetic data, no keys needed)')
    .option('--no-save', 'do not save the run under $AUTOHEDGE_HOME/runs')
    .option('--out <dir>', 'also write result.json, report.md, report.html, chart.svg and transcript.jsonl here')
    .option('--trace', 'print the tool-calling protocol on stderr as it happens')
    .option('--refresh', 'bypass the market-data cache')
    .option('--as-of <date>', "analyse as of a past US session's close (YYYY-MM-DD): nothing from after it")
    .option('-q, --quiet', 'no progress output')
    .option(
      '--mcp-config <file>',
      'MCP servers whose allow-listed tools the desks may call (also AUTOHEDGE_MCP_CONFIG)',
    )
    .option(
      '--blind',
      'hide the company and the calendar from every model: alias, prices scaled to 100, session offsets',
    )
    .option('--samples <k>', "the Director's decision this many times on the same reports; keeps the modal action", '1')
    .option(
      '--min-agreement <share>',
      'with --samples: below this share on one action the run is flagged (default 0.6)',
    )
    .option('--verbose', 'show stack traces on errors')
    .action(async (tickers: string[], options: Record<string, unknown>) => {
      const { analyzeCommand } = await import('./commands/analyze.js');
      setExit(await analyzeCommand(tickers, options, io, deps, argv));
    });

  program
    .command('worker')
    .description('process analysis jobs from a Redis queue (BullMQ) until SIGTERM or Ctrl-C')
    .option('--redis <url>', 'Redis URL (else AUTOHEDGE_REDIS_URL, else redis://127.0.0.1:6379)')
    .option('--queue <name>', 'queue name', 'autohedge')
    .option('--concurrency <n>', 'analyses this worker runs at once', '2')
    .option('--model <model>', 'model for every agent (else AUTOHEDGE_MODEL, AUTOHEDGE_MODEL_<ID>, defaults)')
    .option('--base-url <url>', 'OpenAI-compatible API base URL (also OPENAI_BASE_URL)')
    .option(
      '--search <provider>',
      "what backs Sentiment's web search: exa, openai (built-in search) or none (also AUTOHEDGE_SEARCH; default exa)",
    )
    .option('--max-cost <usd>', "cap on each job's model spend, in USD")
    .option('--max-position <pct>', 'largest position size allowed, % of portfolio', '10')
    .option('--max-risk <pct>', 'largest loss at the stop allowed per trade, % of portfolio', '2')
    .option('--min-reward-risk <ratio>', 'lowest reward/risk a decision may have', '1')
    .option('--stall-interval <seconds>', "a dead worker's job goes back to the queue within about twice this", '15')
    .option('--rate-limit-pause <seconds>', 'how long the whole queue pauses after an OpenAI 429', '10')
    .option('--no-save', 'do not save the runs under $AUTOHEDGE_HOME/runs')
    .option('-q, --quiet', 'no job lines on stderr')
    .option('--verbose', 'show stack traces on errors')
    .action(async (options: Record<string, unknown>) => {
      const { workerCommand } = await import('./commands/worker.js');
      setExit(await workerCommand(options, io, deps, argv));
    });

  program
    .command('enqueue')
    .description('queue one analysis job per (ticker, as-of day) for `autohedge worker`')
    .argument('[tickers...]', 'ticker symbols (and/or --universe <file>)')
    .option(
      '--universe <file>',
      'also the tickers in this file (one a line, # comments; or CSV with a ticker/symbol column)',
    )
    .option('--as-of <day>', 'the as-of day (YYYY-MM-DD) or instant of the analyses (default: now)')
    .option('--wait', 'wait for the jobs and print each result as it completes, then a summary')
    .option('--json', 'with --wait: the results as one JSON array; without: the job ids as JSON')
    .option('--jsonl', 'with --wait: one AnalysisResult JSON per line as each job completes')
    .option('--attempts <n>', 'attempts in all for a job that fails for a transient reason (default 4)')
    .option('--backoff <seconds>', 'wait before the second attempt, doubling after each (default 5)')
    .option('--redis <url>', 'Redis URL (else AUTOHEDGE_REDIS_URL, else redis://127.0.0.1:6379)')
    .option('--queue <name>', 'queue name', 'autohedge')
    .option('-q, --quiet', 'nothing on stderr but errors')
    .option('--verbose', 'show stack traces on errors')
    .action(async (tickers: string[], options: Record<string, unknown>) => {
      const { enqueueCommand } = await import('./commands/enqueue.js');
      setExit(await enqueueCommand(tickers, options, io, deps));
    });

  program
    .command('market')
    .description('print the market-data snapshot exactly as the agents see it')
    .argument('<ticker>', 'ticker symbol')
    .option('--json', 'print the snapshot JSON only')
    .option('--refresh', 'bypass the market-data cache')
    .option('--as-of <date>', "the snapshot as of a past US session's close (YYYY-MM-DD)")
    .option('--record <file>', 'record every HTTP exchange to a cassette')
    .option('--replay <file>', 'replay a cassette: no network at all')
    .option('--demo', 'the bundled demo data (synthetic, no network)')
    .option('--verbose', 'show stack traces on errors')
    .action(async (ticker: string, options: Record<string, unknown>) => {
      const { marketCommand } = await import('./commands/market.js');
      setExit(await marketCommand(ticker, options, io, deps, argv));
    });

  // #29: named vs blind, side by side (register through the command table once src/run/ lands).
  program
    .command('probe')
    .description(
      'a named and a blind run of one ticker on one market fetch, side by side: did the model read the data?',
    )
    .argument('<ticker>', 'ticker symbol')
    .option('--as-of <date>', "as of a past US session's close (YYYY-MM-DD)")
    .option('--json', 'print the comparison JSON only')
    .option('--model <model>', 'model for every agent (else AUTOHEDGE_MODEL, AUTOHEDGE_MODEL_<ID>, defaults)')
    .option('--base-url <url>', 'OpenAI-compatible API base URL (also OPENAI_BASE_URL)')
    .option('--max-cost <usd>', 'stop making model calls before the spend of both runs would pass this many USD')
    .option('--record <file>', 'record every HTTP exchange of both runs to a cassette')
    .option('--replay <file>', 'replay a cassette: no network at all')
    .option('--no-save', 'do not save the two runs under $AUTOHEDGE_HOME/runs')
    .option('-q, --quiet', 'no progress output')
    .option('--verbose', 'show stack traces on errors')
    .action(async (ticker: string, options: Record<string, unknown>) => {
      const { probeCommand } = await import('./commands/probe.js');
      setExit(await probeCommand(ticker, options, io, deps, argv));
    });

  program
    .command('evaluate')
    .description('score saved decisions against the prices that came after them, with baselines')
    .argument('[runIds...]', 'runs to score (ids or unique prefixes); default: every saved run with a decision')
    .option('--since <date>', 'only runs as of this day (YYYY-MM-DD) or later')
    .option('--horizon <sessions>', 'horizons in trading sessions, comma-separated', '5,21,63')
    .option('--benchmark <ticker>', 'excess returns against this ticker', 'SPY')
    .option('--seed <n>', 'seed of the random baseline', '1')
    .option('--include-demo', 'also score demo runs (synthetic data)')
    .option('--json', 'print { decisions, summary } as JSON only')
    .option('--record <file>', 'record every HTTP exchange to a cassette')
    .option('--replay <file>', 'replay a cassette: no network at all')
    .option('--no-save', 'do not save the evaluation under $AUTOHEDGE_HOME/evaluations')
    .option('--out <dir>', 'also write evaluation.md and evaluation.json here')
    .option('-q, --quiet', 'no warnings on stderr')
    .option('--verbose', 'show stack traces on errors')
    .action(async (runIds: string[], options: Record<string, unknown>) => {
      const { evaluateCommand } = await import('./commands/evaluate.js');
      setExit(await evaluateCommand(runIds, options, io, deps, argv));
    });

  program
    .command('doctor')
    .description('check the setup: keys, server, model, streamed tool calls, structured output, Exa, Yahoo')
    .option('--model <model>', 'the model to check (else AUTOHEDGE_MODEL, the Director default)')
    .option('--base-url <url>', 'OpenAI-compatible API base URL (also OPENAI_BASE_URL)')
    .option('--search <provider>', 'the search to check: exa, openai or none (also AUTOHEDGE_SEARCH; default exa)')
    .option('--json', 'print the checks as JSON')
    .action(async (options: Record<string, unknown>) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      setExit(await doctorCommand(options, io, deps));
    });

  program
    .command('agents')
    .description('list the agents: id, name, description, model, tools')
    .option('--model <model>', 'show the models as overridden by --model')
    .option('--json', 'print JSON')
    .option('--mcp-config <file>', 'also show the MCP tools this config binds (also AUTOHEDGE_MCP_CONFIG)')
    .action(async (options: { json?: boolean; model?: string; mcpConfig?: string }) => {
      const { agentsCommand } = await import('./commands/agents.js');
      setExit(await agentsCommand(options, io));
    });

  program
    .command('tools')
    .description('list the tools the agents can call, with their function-calling definitions')
    .option('--json', 'print [{ name, agents, strict, description, summary, definition, provider }]')
    .option('--search <provider>', 'show the tool as backed by exa, openai or none (also AUTOHEDGE_SEARCH)')
    .option('--mcp-config <file>', 'include the MCP tools this config binds (also AUTOHEDGE_MCP_CONFIG)')
    .action(async (options: { json?: boolean; search?: string; mcpConfig?: string }) => {
      const { toolsCommand } = await import('./commands/tools.js');
      setExit(await toolsCommand(options, io));
    });

  program
    .command('mcp')
    .description('serve market data, analyses and saved runs as an MCP server over stdio (JSON-RPC on stdout)')
    .option('--demo', 'answer from the bundled demo cassette (synthetic data, no keys needed)')
    .option('--replay <file>', 'answer from a cassette: no network at all')
    .option('--model <model>', 'model for every agent (else AUTOHEDGE_MODEL, AUTOHEDGE_MODEL_<ID>, defaults)')
    .option('--base-url <url>', 'OpenAI-compatible API base URL (also OPENAI_BASE_URL)')
    .option(
      '--mcp-config <file>',
      'MCP servers whose allow-listed tools the desks may call (also AUTOHEDGE_MCP_CONFIG)',
    )
    .option('--search <provider>', 'what backs the search tool: exa, openai or none (also AUTOHEDGE_SEARCH)')
    .option('--max-cost <usd>', 'spending cap of each analyze call, USD', '1')
    .option('--max-position <pct>', 'largest position size allowed, % of portfolio', '10')
    .option('--max-risk <pct>', 'largest loss at the stop allowed per trade, % of portfolio', '2')
    .option('--min-reward-risk <ratio>', 'lowest reward/risk a decision may have', '1')
    .option('--verbose', 'show stack traces on errors')
    .action(async (options: Record<string, unknown>) => {
      const { mcpCommand } = await import('./commands/mcp.js');
      setExit(await mcpCommand(options, io, deps, argv));
    });

  const runs = program.command('runs').description('list saved runs (newest first)').enablePositionalOptions();
  runs.option('--json', 'print JSON').action(async (options: { json?: boolean }) => {
    const { runsListCommand } = await import('./commands/runs.js');
    setExit(await runsListCommand(options, io));
  });
  runs
    .command('show')
    .description('re-render a saved run like a live one')
    .argument('<runId>', 'run id (or a unique prefix)')
    .option('--json', 'print the saved AnalysisResult JSON')
    .option('--html', 'print the self-contained HTML report (report.html)')
    .action(async (runId: string, options: { json?: boolean; html?: boolean }) => {
      const { runsShowCommand } = await import('./commands/runs.js');
      setExit(await runsShowCommand(runId, options, io));
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError || isCommanderError(error)) {
      const code = (error as CommanderErrorType).code;
      // --help and --version end through exitOverride with exit code 0.
      if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help')
        return ExitCode.ok;
      return ExitCode.usage;
    }
    io.stderr(`${formatError(error, verbose)}\n`);
    return exitCodeFor(error);
  }
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
