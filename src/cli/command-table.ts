import type { ExitCode } from '../errors.js';
import type { CliDeps } from './deps.js';
import type { CliIo } from './io.js';
import { optionGroups, type GroupName, type OptionKey, type OptionValues } from './option-catalogue.js';
import { defaultMcpCallCapUsd, defaultMcpConcurrency, defaultMcpServerCapUsd } from '../run/defaults.js';

/**
 * Every command as one table entry: its name, arguments, option groups and the
 * function that runs it. A command's module is imported only when it runs, so `--help`
 * stays fast. Adding a command is one entry here and its own file in src/cli/commands/.
 */

export interface CommandSpec {
  name: string;
  description: string;
  /** Commander's syntax (`<ticker>`, `[tickers...]`) and help, in order. */
  args?: ReadonlyArray<readonly [syntax: string, help: string]>;
  /** Option groups of the catalogue, each shown under its heading in --help. */
  groups?: readonly GroupName[];
  /** Single options taken from other groups, shown under "Options". */
  options?: readonly OptionKey[];
  /** Where this command reads an option its own way: the help line it shows. */
  help?: Partial<Record<OptionKey, string>>;
  /** Where this command's default differs from the catalogue's. */
  defaults?: Partial<Record<OptionKey, string>>;
}

/** Each option a spec takes: its groups', its own, and the common ones. */
export type OptionKeysOf<Spec extends CommandSpec> =
  | (Spec['groups'] extends readonly GroupName[]
      ? (typeof optionGroups)[Spec['groups'][number]]['options'][number]
      : never)
  | (Spec['options'] extends readonly OptionKey[] ? Spec['options'][number] : never)
  | (typeof optionGroups)['common']['options'][number];

export type OptionsOf<Spec extends CommandSpec> = OptionValues<OptionKeysOf<Spec>>;

export interface CommandInput<Options> {
  /** The arguments in the order of `args`; a variadic one is a list. */
  args: ReadonlyArray<string | string[]>;
  options: Options;
  io: CliIo;
  deps: CliDeps;
  /** The whole command line (a recorded cassette keeps it). */
  argv: string[];
}

export interface Command extends CommandSpec {
  run: (input: CommandInput<Record<string, unknown>>) => Promise<ExitCode | number>;
  subcommands?: readonly Command[];
}

export function optionKeysOf(spec: CommandSpec): OptionKey[] {
  const grouped = (spec.groups ?? []).flatMap((group) => optionGroups[group].options);
  return [...new Set<OptionKey>([...grouped, ...(spec.options ?? []), ...optionGroups.common.options])];
}

function command<const Spec extends CommandSpec>(
  spec: Spec,
  run: (input: CommandInput<OptionsOf<Spec>>) => Promise<number>,
  subcommands?: readonly Command[],
): Command {
  return { ...spec, run: run as Command['run'], ...(subcommands ? { subcommands } : {}) };
}

const ticker = (input: { args: ReadonlyArray<string | string[]> }) => input.args[0] as string;
const list = (input: { args: ReadonlyArray<string | string[]> }) => (input.args[0] ?? []) as string[];

export const analyzeSpec = {
  name: 'analyze',
  description: 'analyse one or more tickers: Director plan, four desks, decision, guardrails',
  args: [['[tickers...]', 'ticker symbols, e.g. NVDA AAPL (and/or --universe <file>)']],
  groups: ['run', 'trust', 'model', 'tools', 'guardrails', 'rateLimits', 'replay', 'output', 'save', 'universe'],
  help: { json: 'print the AnalysisResult JSON only (an array for several tickers)' },
} as const satisfies CommandSpec;
export type AnalyzeCliOptions = OptionsOf<typeof analyzeSpec>;

export const probeSpec = {
  name: 'probe',
  description: 'a named and a blind run of one ticker on one market fetch, side by side: did the model read the data?',
  args: [['<ticker>', 'ticker symbol']],
  groups: ['model'],
  options: ['asOf', 'json', 'maxCost', 'record', 'replay', 'save', 'quiet'],
  help: {
    json: 'print the comparison JSON only',
    maxCost: 'stop making model calls before the spend of both runs would pass this many USD',
    record: 'record every HTTP exchange of both runs to a cassette',
    save: 'do not save the two runs under $AUTOHEDGE_HOME/runs',
    asOf: "as of a past US session's close (YYYY-MM-DD)",
  },
} as const satisfies CommandSpec;
export type ProbeCliOptions = OptionsOf<typeof probeSpec>;

export const workerSpec = {
  name: 'worker',
  description: 'process analysis jobs from a Redis queue (BullMQ) until SIGTERM or Ctrl-C',
  groups: ['queue', 'worker', 'model', 'tools', 'guardrails', 'rateLimits'],
  options: ['concurrency', 'save', 'quiet'],
  help: {
    concurrency: 'analyses this worker runs at once',
    maxCost: "cap on each job's model spend across its attempts, in USD (the lower of this and the job's own)",
    model: 'model for every agent of a job that names none (else AUTOHEDGE_MODEL, AUTOHEDGE_MODEL_<ID>, defaults)',
    maxPosition: 'largest position size allowed, % of portfolio, for a job that sets no limits',
    save: 'do not save the runs under $AUTOHEDGE_HOME/runs',
    quiet: 'no job lines on stderr',
  },
} as const satisfies CommandSpec;
export type WorkerCliOptions = OptionsOf<typeof workerSpec>;

export const enqueueSpec = {
  name: 'enqueue',
  description: 'queue one analysis job per (ticker, as-of day) for `autohedge worker`',
  args: [['[tickers...]', 'ticker symbols (and/or --universe <file>)']],
  groups: ['queue', 'enqueue', 'guardrails', 'trust'],
  options: ['universe', 'asOf', 'agent', 'model', 'json', 'jsonl', 'quiet'],
  help: {
    universe: 'also the tickers in this file (one a line, # comments; or CSV with a ticker/symbol column)',
    json: 'with --wait: the results as one JSON array; without: the job ids as JSON',
    jsonl: 'with --wait: one AnalysisResult JSON per line as each job completes',
    quiet: 'nothing on stderr but errors',
    maxCost: "the job's spending cap, USD (a worker's own --max-cost caps it too)",
  },
} as const satisfies CommandSpec;
export type EnqueueCliOptions = OptionsOf<typeof enqueueSpec>;

export const marketSpec = {
  name: 'market',
  description: 'print the market-data snapshot exactly as the agents see it',
  args: [['<ticker>', 'ticker symbol']],
  groups: ['replay'],
  options: ['json', 'refresh', 'asOf', 'blind'],
  help: {
    json: 'print the snapshot JSON only',
    asOf: "the snapshot as of a past US session's close (YYYY-MM-DD)",
    blind: "the snapshot as a blind run's agents see it: an alias, prices scaled to 100, session offsets",
    record: 'record every HTTP exchange to a cassette',
    demo: 'the bundled demo data (synthetic, no network)',
  },
} as const satisfies CommandSpec;
export type MarketCliOptions = OptionsOf<typeof marketSpec>;

export const evaluateSpec = {
  name: 'evaluate',
  description: 'score saved decisions against the prices that came after them, with baselines',
  args: [['[runIds...]', 'runs to score (ids or unique prefixes); default: every saved run with a decision']],
  groups: ['evaluate', 'attribution'],
  options: ['json', 'demo', 'record', 'replay', 'save', 'out', 'quiet'],
  help: {
    json: 'print { decisions, summary } as JSON only',
    demo: 'score the saved demo runs against the bundled synthetic prices after the demo day (offline)',
    record: 'record every HTTP exchange to a cassette',
    save: 'do not save the evaluation under $AUTOHEDGE_HOME/evaluations',
    out: 'also write evaluation.md and evaluation.json here',
    quiet: 'no warnings on stderr',
  },
} as const satisfies CommandSpec;
export type EvaluateCliOptions = OptionsOf<typeof evaluateSpec>;

export const doctorSpec = {
  name: 'doctor',
  description: 'check the setup: keys, server, model, streamed tool calls, structured output, Exa, Yahoo',
  groups: ['model'],
  options: ['search', 'json'],
  help: {
    model: 'the model to check (else AUTOHEDGE_MODEL, the Director default)',
    search: 'the search to check: exa, openai or none (also AUTOHEDGE_SEARCH; default exa)',
    json: 'print the checks as JSON',
  },
} as const satisfies CommandSpec;
export type DoctorCliOptions = OptionsOf<typeof doctorSpec>;

const agentsSpec = {
  name: 'agents',
  description: 'list the agents: id, name, description, model, tools',
  options: ['model', 'json', 'mcpConfig'],
  help: {
    model: 'show the models as overridden by --model',
    mcpConfig: 'also show the MCP tools this config binds (also AUTOHEDGE_MCP_CONFIG)',
  },
} as const satisfies CommandSpec;

const toolsSpec = {
  name: 'tools',
  description: 'list the tools the agents can call, with their function-calling definitions',
  options: ['json', 'search', 'mcpConfig'],
  help: {
    json: 'print [{ name, agents, strict, description, summary, definition, provider }]',
    search: 'show the tool as backed by exa, openai or none (also AUTOHEDGE_SEARCH)',
    mcpConfig: 'include the MCP tools this config binds (also AUTOHEDGE_MCP_CONFIG)',
  },
} as const satisfies CommandSpec;

export const mcpSpec = {
  name: 'mcp',
  description: 'serve market data, analyses and saved runs as an MCP server over stdio (JSON-RPC on stdout)',
  groups: ['model', 'tools', 'guardrails'],
  options: ['demo', 'replay', 'runMaxCost', 'concurrency'],
  help: {
    demo: 'answer from the bundled demo cassette (synthetic data, no keys needed)',
    replay: 'answer from a cassette: no network at all',
    maxCost: "the server's spend over its lifetime, USD: once it is spent, analyze calls are refused",
    runMaxCost: 'spending cap of each analyze call, USD (a call may ask for less with maxCostUsd)',
    concurrency: 'analyses at once; as many more calls wait their turn, and further ones are refused',
  },
  defaults: {
    maxCost: String(defaultMcpServerCapUsd),
    runMaxCost: String(defaultMcpCallCapUsd),
    concurrency: String(defaultMcpConcurrency),
  },
} as const satisfies CommandSpec;
export type McpCliOptions = OptionsOf<typeof mcpSpec>;

export const portfolioSpec = {
  name: 'portfolio',
  description: 'turn saved decisions and your holdings into proposed, constrained orders (nothing is placed)',
  args: [['[tickers...]', 'decisions for these tickers (default: the held ones); or --universe, --runs, --latest']],
  groups: ['book', 'limits', 'bookOutput', 'model', 'tools'],
  options: ['universe', 'maxRisk', 'maxCost', 'json', 'demo', 'replay', 'record', 'refresh', 'save', 'out', 'quiet'],
  help: {
    universe: 'decisions for the tickers in this file (one a line, # comments; or CSV with a ticker/symbol column)',
    maxRisk: 'largest loss at the stop of one position, % of NAV (as in the guardrails)',
    json: 'print the book as JSON only',
    demo: 'market data from the bundled demo (synthetic; sizes the demo runs of ACME)',
    replay: 'market data from a cassette: no network at all',
    record: 'record the market-data exchanges to a cassette',
    save: 'do not save the book under $AUTOHEDGE_HOME/portfolios',
    out: 'also write portfolio.json, report.md, report.html and weights.svg here',
    quiet: 'no notices on stderr',
    model: 'with --analyze: model for every agent (else AUTOHEDGE_MODEL, AUTOHEDGE_MODEL_<ID>, defaults)',
    maxCost: 'with --analyze: stop making model calls before the spend of all the analyses would pass this many USD',
  },
} as const satisfies CommandSpec;
export type PortfolioCliOptions = OptionsOf<typeof portfolioSpec>;
export const watchSpec = {
  name: 'watch',
  description: 're-analyse a watchlist only where something happened (triggers), within a monthly budget',
  args: [['[tickers...]', 'ticker symbols (and/or --universe <file>)']],
  groups: ['watch', 'model', 'queue'],
  options: [
    'maxPosition',
    'maxRisk',
    'minRewardRisk',
    'universe',
    'concurrency',
    'asOf',
    'search',
    'mcpConfig',
    'replay',
    'record',
    'demo',
    'refresh',
    'json',
    'quiet',
  ],
  help: {
    universe: 'the watchlist: one ticker a line (# comments), or CSV with a ticker/symbol column',
    asOf: "with --once: the triggers as of a past US session's close (YYYY-MM-DD), with --as-of's historical rules",
    json: 'print each cycle as { cycle, asOf, analysed, carried, skipped, spend } JSON',
    queue: 'the queue of --enqueue',
  },
} as const satisfies CommandSpec;
export type WatchCliOptions = OptionsOf<typeof watchSpec>;

const runsShowSpec = {
  name: 'show',
  description: 're-render a saved run like a live one',
  args: [['<runId>', 'run id (or a unique prefix)']],
  options: ['json', 'html'],
  help: { json: 'print the saved AnalysisResult JSON' },
} as const satisfies CommandSpec;

const runsSpec = {
  name: 'runs',
  description: 'list saved runs (newest first)',
  options: ['json'],
} as const satisfies CommandSpec;

// ---- ledger (#26): the sealed decision ledger, docs/ledger.md
const ledgerDemo = { demo: "the demo runs' own ledger" };

const ledgerVerifySpec = {
  name: 'verify',
  description: 'check the chain: exit 0 intact, 1 broken (naming the first bad seq and why), 2 usage',
  groups: ['ledger'],
  options: ['runs', 'demo', 'json'],
  help: {
    ...ledgerDemo,
    json: 'print { ok, records, firstBad?, torn? } as JSON',
    runs: "also check each saved run's result.json against its recorded digest",
  },
} as const satisfies CommandSpec;

const ledgerListSpec = {
  name: 'list',
  description: 'the records, oldest first',
  options: ['demo', 'json'],
  help: { ...ledgerDemo, json: 'print the records as JSON' },
} as const satisfies CommandSpec;

const ledgerHeadSpec = {
  name: 'head',
  description: 'the last record hash, to publish somewhere dated',
  options: ['demo', 'json'],
  help: { ...ledgerDemo, json: 'print { seq, hash, recordedAt, records }' },
} as const satisfies CommandSpec;

const ledgerExportSpec = {
  name: 'export',
  description: 'write the ledger and its public key to one file, verifiable anywhere with `ledger verify --ledger`',
  args: [['<file>', 'the file to write']],
  options: ['demo'],
  help: ledgerDemo,
} as const satisfies CommandSpec;

const ledgerKeygenSpec = {
  name: 'keygen',
  description: 'make an Ed25519 signing key under $AUTOHEDGE_HOME/ledger/ (never overwrites one)',
} as const satisfies CommandSpec;

const ledgerSpec = {
  name: 'ledger',
  description: 'the sealed decision ledger: verify, list, head, export, keygen (docs/ledger.md)',
} as const satisfies CommandSpec;

const ledgerCommand = () => import('./commands/ledger.js');

/** The commands in the order --help lists them. */
export const commandTable: readonly Command[] = [
  command(analyzeSpec, async (input) =>
    (await import('./commands/analyze.js')).analyzeCommand(
      list(input),
      input.options,
      input.io,
      input.deps,
      input.argv,
    ),
  ),
  command(probeSpec, async (input) =>
    (await import('./commands/probe.js')).probeCommand(ticker(input), input.options, input.io, input.deps, input.argv),
  ),
  command(workerSpec, async (input) =>
    (await import('./commands/worker.js')).workerCommand(input.options, input.io, input.deps, input.argv),
  ),
  command(enqueueSpec, async (input) =>
    (await import('./commands/enqueue.js')).enqueueCommand(list(input), input.options, input.io, input.deps),
  ),
  command(marketSpec, async (input) =>
    (await import('./commands/market.js')).marketCommand(
      ticker(input),
      input.options,
      input.io,
      input.deps,
      input.argv,
    ),
  ),
  command(evaluateSpec, async (input) =>
    (await import('./commands/evaluate.js')).evaluateCommand(
      list(input),
      input.options,
      input.io,
      input.deps,
      input.argv,
    ),
  ),
  command(doctorSpec, async (input) =>
    (await import('./commands/doctor.js')).doctorCommand(input.options, input.io, input.deps),
  ),
  command(agentsSpec, async (input) => (await import('./commands/agents.js')).agentsCommand(input.options, input.io)),
  command(toolsSpec, async (input) => (await import('./commands/tools.js')).toolsCommand(input.options, input.io)),
  command(mcpSpec, async (input) =>
    (await import('./commands/mcp.js')).mcpCommand(input.options, input.io, input.deps, input.argv),
  ),
  command(portfolioSpec, async (input) =>
    (await import('./commands/portfolio.js')).portfolioCommand(
      list(input),
      input.options,
      input.io,
      input.deps,
      input.argv,
    ),
  ),
  command(watchSpec, async (input) =>
    (await import('./commands/watch.js')).watchCommand(list(input), input.options, input.io, input.deps, input.argv),
  ),
  command(runsSpec, async (input) => (await import('./commands/runs.js')).runsListCommand(input.options, input.io), [
    command(runsShowSpec, async (input) =>
      (await import('./commands/runs.js')).runsShowCommand(ticker(input), input.options, input.io),
    ),
  ]),
  command(ledgerSpec, async (input) => (await ledgerCommand()).ledgerUsageCommand(input.io), [
    command(ledgerVerifySpec, async (input) => (await ledgerCommand()).ledgerVerifyCommand(input.options, input.io)),
    command(ledgerListSpec, async (input) => (await ledgerCommand()).ledgerListCommand(input.options, input.io)),
    command(ledgerHeadSpec, async (input) => (await ledgerCommand()).ledgerHeadCommand(input.options, input.io)),
    command(ledgerExportSpec, async (input) =>
      (await ledgerCommand()).ledgerExportCommand(ticker(input), input.options, input.io),
    ),
    command(ledgerKeygenSpec, async (input) => (await ledgerCommand()).ledgerKeygenCommand(input.io)),
  ]),
];

/** The program's own help, after the command list. */
export const programHelp = `
Examples:
  autohedge analyze ACME --demo          a full analysis offline, no keys (synthetic demo data)
  autohedge analyze NVDA                 needs OPENAI_API_KEY (and EXA_API_KEY for news search)
  autohedge analyze NVDA --agent sentiment --trace
  autohedge market NVDA --json
  autohedge analyze NVDA --as-of 2025-06-02 && autohedge evaluate --horizon 5,21

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, EXA_API_KEY, EXA_BASE_URL, AUTOHEDGE_SEARCH[_MODEL],
AUTOHEDGE_MODEL[_<ID>], AUTOHEDGE_HOME, AUTOHEDGE_STRUCTURED (json_schema|json_object|prompt),
AUTOHEDGE_PRICES, AUTOHEDGE_MCP_CONFIG, AUTOHEDGE_REDIS_URL; a .env file in the working directory is read.
Exit codes: 0 ok, 1 failed, 2 usage or configuration, 3 degraded, 4 flagged (the decision breaks a
guardrail rule), 130 interrupted (129 SIGHUP, 143 SIGTERM).
Not investment advice: autohedge never places an order.`;
