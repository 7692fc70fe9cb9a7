import { deskCountText } from '../../agents/roster.js';
import type { ExitCode } from '../errors.js';
import type { CliDeps } from './deps.js';
import type { CliIo } from './io.js';
import { helpWording, optionGroups, type GroupName, type OptionKey, type OptionValues } from './option-catalogue.js';
import { defaultMcpCallCapUsd, defaultMcpConcurrency, defaultMcpServerCapUsd } from '../run/defaults.js';

/**
 * Every command as one table entry: its name, arguments, option groups and the
 * function that runs it. A command's module is imported only when it runs, so `--help`
 * stays fast. Adding a command is one entry here and its own file in src/cli/commands/.
 */

export interface CommandSpec {
  name: string;
  /** Other spellings the command answers to (`analyse`, the help's own British spelling). */
  aliases?: readonly string[];
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

/** A command's function after its positional arguments: the options, then what the shell gives it. */
type CommandFunction<Options> = (options: Options, io: CliIo, deps: CliDeps, argv: string[]) => Promise<number>;
type CommandFunctionOf<Argument, Options> = (
  argument: Argument,
  ...rest: Parameters<CommandFunction<Options>>
) => Promise<number>;

/** How a command reads its positional arguments: none, one (`<ticker>`), or a variadic list (`[tickers...]`). */
type ArgumentReader<Argument> = (args: ReadonlyArray<string | string[]>) => Argument;
const noArgument: ArgumentReader<undefined> = () => undefined;
const one: ArgumentReader<string> = (args) => args[0] as string;
const list: ArgumentReader<string[]> = (args) => (args[0] ?? []) as string[];

/**
 * A table entry: the spec, how its arguments are read, and `load`, which imports the
 * command's module only when it runs and hands back its function.
 */
function command<const Spec extends CommandSpec, Argument>(
  spec: Spec,
  argumentOf: ArgumentReader<Argument>,
  load: () => Promise<
    NoInfer<Argument> extends undefined
      ? CommandFunction<OptionsOf<Spec>>
      : CommandFunctionOf<NoInfer<Argument>, OptionsOf<Spec>>
  >,
  subcommands?: readonly Command[],
): Command {
  const run: Command['run'] = async (input) => {
    const commandFunction = (await load()) as (...parameters: unknown[]) => Promise<number>;
    const shell = [input.options, input.io, input.deps, input.argv];
    return argumentOf === noArgument ? commandFunction(...shell) : commandFunction(argumentOf(input.args), ...shell);
  };
  return { ...spec, run, ...(subcommands ? { subcommands } : {}) };
}

export const analyzeSpec = {
  name: 'analyze',
  aliases: ['analyse'],
  description: `analyse one or more tickers: Director plan, ${deskCountText()}, decision, guardrails`,
  args: [['[tickers...]', 'ticker symbols, e.g. NVDA AAPL (and/or --universe <file>)']],
  groups: [
    'run',
    'trust',
    'model',
    'tools',
    'guardrails',
    'rateLimits',
    'tier',
    'replay',
    'output',
    'save',
    'universe',
  ],
  help: { json: 'print the AnalysisResult JSON only (an array for several tickers)' },
} as const satisfies CommandSpec;
export type AnalyzeCliOptions = OptionsOf<typeof analyzeSpec>;

export const probeSpec = {
  name: 'probe',
  description: 'a named and a blind run of one ticker on one market fetch, side by side: did the model read the data?',
  args: [['<ticker>', 'ticker symbol']],
  groups: ['model'],
  options: ['asOf', 'json', 'maxCost', 'record', 'replay', 'demo', 'save', 'quiet'],
  help: {
    demo: "replay the demo's probe of ACME (synthetic data, no keys, no network; saved as demo runs)",
    json: 'print the comparison JSON only',
    maxCost: 'stop making model calls before the spend of both runs would pass this many USD',
    record: helpWording.record('of both runs'),
    save: helpWording.save('the two runs', 'runs'),
    asOf: "as of a past session's close on the ticker's exchange (YYYY-MM-DD)",
  },
} as const satisfies CommandSpec;
export type ProbeCliOptions = OptionsOf<typeof probeSpec>;

export const workerSpec = {
  name: 'worker',
  description: 'process analysis jobs from a Redis queue (BullMQ) until SIGTERM or Ctrl-C',
  groups: ['queue', 'worker', 'model', 'tools', 'guardrails', 'rateLimits', 'tier'],
  options: ['concurrency', 'demo', 'save', 'quiet'],
  help: {
    concurrency: 'analyses this worker runs at once',
    demo: 'run the jobs of `enqueue --demo` (queue <queue>-demo) from the demo cassette: no key, saved as demo runs',
    maxCost: "cap on each job's model spend across its attempts, in USD (the lower of this and the job's own)",
    model: helpWording.model('of a job that names none'),
    maxPosition: 'largest position size allowed, % of portfolio, for a job that sets no limits',
    save: helpWording.save('the runs', 'runs'),
    quiet: 'no job lines on stderr',
  },
} as const satisfies CommandSpec;
export type WorkerCliOptions = OptionsOf<typeof workerSpec>;

export const enqueueSpec = {
  name: 'enqueue',
  description: 'queue one analysis job per (ticker, as-of day) for `autohedge worker`',
  args: [['[tickers...]', 'ticker symbols (and/or --universe <file>)']],
  groups: ['queue', 'enqueue', 'guardrails', 'trust'],
  options: ['universe', 'asOf', 'agent', 'model', 'demo', 'json', 'jsonl', 'quiet'],
  help: {
    demo: 'demo jobs (ACME, synthetic data) on queue <queue>-demo, for `autohedge worker --demo` (no key needed)',
    universe: helpWording.universe('also the tickers'),
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
    asOf: "the snapshot as of a past session's close on the ticker's exchange (YYYY-MM-DD)",
    blind: "the snapshot as a blind run's agents see it: an alias, prices scaled to 100, session offsets",
    record: helpWording.record(),
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
    record: helpWording.record(),
    save: helpWording.save('the evaluation', 'evaluations'),
    out: 'also write evaluation.md, evaluation.html and evaluation.json here',
    quiet: 'no warnings on stderr',
  },
} as const satisfies CommandSpec;
export type EvaluateCliOptions = OptionsOf<typeof evaluateSpec>;

export const doctorSpec = {
  name: 'doctor',
  description:
    'check the setup: keys, server, model, streamed tool calls, structured output, context, Exa, market data sources',
  groups: ['model', 'conformance'],
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
  description: 'list the tools the agents can call, their definitions, and when a run switches each off',
  options: ['json', 'search', 'mcpConfig'],
  help: {
    json: 'print [{ name, agents, strict, description, summary, definition, provider, builtIn }]',
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
    universe: helpWording.universe('decisions for the tickers'),
    maxRisk: 'largest loss at the stop of one position, % of NAV (as in the guardrails)',
    json: 'print the book as JSON only',
    demo: 'market data from the bundled demo (synthetic; sizes the demo runs of ACME)',
    replay: 'market data from a cassette: no network at all',
    record: 'record the market-data exchanges to a cassette',
    save: helpWording.save('the book', 'portfolios'),
    out: 'also write portfolio.json, report.md, report.html and weights.svg here',
    quiet: 'no notices on stderr',
    model: `with --analyze: ${helpWording.model()}`,
    maxCost: 'with --analyze: stop making model calls before the spend of all the analyses would pass this many USD',
  },
} as const satisfies CommandSpec;
export type PortfolioCliOptions = OptionsOf<typeof portfolioSpec>;
export const watchSpec = {
  name: 'watch',
  description: 're-analyse a watchlist only where something happened (triggers), within a monthly budget',
  args: [['[tickers...]', 'ticker symbols (and/or --universe <file>)']],
  groups: ['watch', 'model', 'queue', 'tier'],
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
    asOf: "with --once: the triggers as of a past session's close on the ticker's exchange (YYYY-MM-DD), with --as-of's historical rules",
    json: 'print each cycle as { cycle, asOf, analysed, carried, skipped, spend } JSON',
    queue: 'the queue of --enqueue',
    demo: "one cycle over the bundled demo's tickers (ACME; synthetic data, no key), saved under $AUTOHEDGE_HOME/watch/demo/",
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
  options: ['runs', 'demo', 'json', 'tsaCert'],
  help: {
    ...ledgerDemo,
    json: 'print { ok, records, firstBad?, torn?, anchors, recordAnchors } as JSON',
    runs: "also check each saved run's result.json against its recorded digest",
  },
} as const satisfies CommandSpec;

const ledgerListSpec = {
  name: 'list',
  description: 'the records, oldest first',
  options: ['demo', 'json', 'ledger', 'publicKey'],
  help: {
    ...ledgerDemo,
    json: 'print the records as JSON',
    ledger: 'a ledger file or an export to read (checked first, as `ledger verify --ledger`)',
  },
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

const ledgerAnchorSpec = {
  name: 'anchor',
  description:
    'time-stamp the head with RFC 3161 TSAs (default two free ones; AUTOHEDGE_TSA_URLS or --tsa replace them): exit 1 when none answered',
  options: ['tsa', 'tsaCert', 'demo', 'json'],
  help: { ...ledgerDemo, json: 'print { seq, hash, stamped, failed } as JSON' },
} as const satisfies CommandSpec;

const ledgerPublishSpec = {
  name: 'publish',
  description: 'append each anchored head to a file in a git repository and commit (then push it yourself)',
  options: ['git', 'demo'],
  help: ledgerDemo,
} as const satisfies CommandSpec;

const ledgerKeygenSpec = {
  name: 'keygen',
  description: 'make an Ed25519 signing key under $AUTOHEDGE_HOME/ledger/ (never overwrites one)',
} as const satisfies CommandSpec;

const ledgerSpec = {
  name: 'ledger',
  description: 'the sealed decision ledger: verify, list, head, export, keygen, anchor, publish (docs/ledger.md)',
} as const satisfies CommandSpec;

// ---- view (#42): the local read-only site, docs/view.md
export const viewSpec = {
  name: 'view',
  description:
    'a local read-only site of the runs, the ledger, the track record and the book (or --bundle a static copy)',
  groups: ['view'],
  options: ['demo'],
  help: { demo: "the demo's runs and its offline evaluation, labelled DEMO" },
} as const satisfies CommandSpec;
export type ViewCliOptions = OptionsOf<typeof viewSpec>;

const runsCommands = () => import('./commands/runs.js');
const ledgerCommands = () => import('./commands/ledger.js');

/** The commands in the order --help lists them. */
export const commandTable: readonly Command[] = [
  command(analyzeSpec, list, async () => (await import('./commands/analyze.js')).analyzeCommand),
  command(probeSpec, one, async () => (await import('./commands/probe.js')).probeCommand),
  command(workerSpec, noArgument, async () => (await import('./commands/worker.js')).workerCommand),
  command(enqueueSpec, list, async () => (await import('./commands/enqueue.js')).enqueueCommand),
  command(marketSpec, one, async () => (await import('./commands/market.js')).marketCommand),
  command(evaluateSpec, list, async () => (await import('./commands/evaluate.js')).evaluateCommand),
  command(doctorSpec, noArgument, async () => (await import('./commands/doctor.js')).doctorCommand),
  command(agentsSpec, noArgument, async () => (await import('./commands/agents.js')).agentsCommand),
  command(toolsSpec, noArgument, async () => (await import('./commands/tools.js')).toolsCommand),
  command(mcpSpec, noArgument, async () => (await import('./commands/mcp.js')).mcpCommand),
  command(portfolioSpec, list, async () => (await import('./commands/portfolio.js')).portfolioCommand),
  command(watchSpec, list, async () => (await import('./commands/watch.js')).watchCommand),
  command(runsSpec, noArgument, async () => (await runsCommands()).runsListCommand, [
    command(runsShowSpec, one, async () => (await runsCommands()).runsShowCommand),
  ]),
  command(viewSpec, noArgument, async () => (await import('./commands/view.js')).viewCommand),
  command(ledgerSpec, noArgument, async () => (await ledgerCommands()).ledgerUsageCommand, [
    command(ledgerVerifySpec, noArgument, async () => (await ledgerCommands()).ledgerVerifyCommand),
    command(ledgerListSpec, noArgument, async () => (await ledgerCommands()).ledgerListCommand),
    command(ledgerHeadSpec, noArgument, async () => (await ledgerCommands()).ledgerHeadCommand),
    command(ledgerExportSpec, one, async () => (await ledgerCommands()).ledgerExportCommand),
    command(ledgerKeygenSpec, noArgument, async () => (await ledgerCommands()).ledgerKeygenCommand),
    command(
      ledgerAnchorSpec,
      noArgument,
      async () => (await import('./commands/ledger-anchor.js')).ledgerAnchorCommand,
    ),
    command(
      ledgerPublishSpec,
      noArgument,
      async () => (await import('./commands/ledger-anchor.js')).ledgerPublishCommand,
    ),
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

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, EXA_API_KEY, EXA_BASE_URL, TIINGO_API_KEY, AUTOHEDGE_SEARCH[_MODEL],
AUTOHEDGE_MODEL[_<ID>], AUTOHEDGE_HOME, AUTOHEDGE_STRUCTURED (json_schema|json_object|grammar|prompt),
AUTOHEDGE_PRICES, AUTOHEDGE_MCP_CONFIG, AUTOHEDGE_REDIS_URL, AUTOHEDGE_SEC_USER_AGENT ("Name email": SEC
fundamentals); a .env file in the working directory is read.
Exit codes: 0 ok, 1 failed, 2 usage or configuration, 3 degraded, 4 flagged (the decision breaks a
guardrail rule), 130 interrupted (129 SIGHUP, 143 SIGTERM).
Not investment advice: autohedge never places an order.`;
