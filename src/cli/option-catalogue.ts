import type { ZodType } from 'zod';
import { deskIds } from '../../agents/index.js';
import {
  defaultBenchmark,
  defaultHorizons,
  defaultResamples,
  defaultSeed,
  defaultSlippageBps,
  defaultSpreadBps,
  longestHorizon,
} from '../evaluate/defaults.js';
import { defaultLimits } from '../guardrails/limits.js';
import {
  defaultAttempts,
  defaultBackoffMs,
  defaultQueueName,
  defaultRateLimitPauseMs,
  defaultStallIntervalMs,
} from '../queue/defaults.js';
import { defaultConcurrency } from '../run/defaults.js';
import { defaultMinAgreement } from '../pipeline/stability.js';
import { defaultSearchChoice } from '../search/types.js';
import { defaultPortfolioLimits as book } from '../portfolio/limits.js';
import { defaultRunMaxCostUsd } from '../watch/defaults.js';
import { defaultTriggerLimits } from '../watch/triggers.js';

/**
 * Every command-line option, defined once: its flag, its help, its zod field and its
 * default (taken from the domain constant, never restated). Commands pick options by
 * group (src/cli/command-table.ts); adding a flag is one entry here and its name in a
 * group. The zod fields are functions of src/cli/options.ts, loaded only when a
 * command runs, so `--help` never loads zod.
 */

export type Fields = typeof import('./options.js');

export interface OptionEntry {
  /** Commander's flag syntax; its attribute name is the entry's key. */
  flags: string;
  help: string;
  /** The value's type, from what commander hands over (a string, a boolean, a list). */
  field: (fields: Fields) => ZodType;
  /** Commander's default, shown in --help and applied before validation. */
  default?: string | boolean | readonly string[];
  /** `--agent a --agent b`: collected into a list. */
  repeatable?: boolean;
  /**
   * The RunRequest field the option sets (src/run/request.ts), a dot for a nested one
   * (`limits.maxPositionPct`): requestFromFlags carries it there, under that name.
   */
  request?: string;
}

const seconds = (ms: number) => String(ms / 1000);

/**
 * Help wordings that several commands adapt to what they do (their `help` in
 * command-table.ts), each written once.
 */
export const helpWording = {
  /** --model: which agents it sets, where not every agent of this run ("of a job that names none"). */
  model: (which?: string) =>
    `model for every agent${which ? ` ${which}` : ''} (else AUTOHEDGE_MODEL, AUTOHEDGE_MODEL_<ID>, defaults)`,
  /** --record: whose exchanges ("of both runs"). */
  record: (whose?: string) => `record every HTTP exchange${whose ? ` ${whose}` : ''} to a cassette`,
  /** --no-save: what is not saved, and its folder under $AUTOHEDGE_HOME. */
  save: (what: string, folder: string) => `do not save ${what} under $AUTOHEDGE_HOME/${folder}`,
  /** --universe: what the command takes of the file's tickers ("also the tickers"). */
  universe: (what: string) => `${what} in this file (one a line, # comments; or CSV with a ticker/symbol column)`,
};

export const optionCatalogue = {
  // ---- model
  model: {
    flags: '--model <model>',
    request: 'model',
    help: helpWording.model(),
    field: (f) => f.modelName.optional(),
  },
  baseUrl: {
    flags: '--base-url <url>',
    request: 'baseUrl',
    help: 'OpenAI-compatible API base URL (also OPENAI_BASE_URL)',
    // Checked by baseUrlProblem where it is used: a session refuses it (exit 2), doctor reports it as a check.
    field: (f) => f.text.optional(),
  },
  // ---- tools
  search: {
    flags: '--search <provider>',
    request: 'search',
    help: `what backs Sentiment's web search: exa, openai (built-in search) or none (also AUTOHEDGE_SEARCH; default ${defaultSearchChoice})`,
    // Checked with AUTOHEDGE_SEARCH by resolveSearchChoice (src/search/choice.ts).
    field: (f) => f.text.optional(),
  },
  mcpConfig: {
    flags: '--mcp-config <file>',
    request: 'mcpConfig',
    help: 'MCP servers whose allow-listed tools the desks may call (also AUTOHEDGE_MCP_CONFIG)',
    field: (f) => f.path.optional(),
  },
  // ---- guardrails and spending
  maxPosition: {
    flags: '--max-position <pct>',
    request: 'limits.maxPositionPct',
    help: 'largest position size allowed, % of portfolio',
    field: (f) => f.positiveNumber('--max-position', 100),
    default: String(defaultLimits.maxPositionPct),
  },
  maxRisk: {
    flags: '--max-risk <pct>',
    request: 'limits.maxRiskPct',
    help: 'largest loss at the stop allowed per trade, % of portfolio',
    field: (f) => f.positiveNumber('--max-risk', 100),
    default: String(defaultLimits.maxRiskPct),
  },
  minRewardRisk: {
    flags: '--min-reward-risk <ratio>',
    request: 'limits.minRewardRisk',
    help: 'lowest reward/risk a decision may have',
    field: (f) => f.positiveNumber('--min-reward-risk'),
    default: String(defaultLimits.minRewardRisk),
  },
  maxCost: {
    flags: '--max-cost <usd>',
    request: 'maxCostUsd',
    help: 'stop making model calls before the spend would pass this many USD',
    field: (f) => f.positiveNumber('--max-cost').optional(),
  },
  serviceTier: {
    flags: '--service-tier <tier>',
    request: 'serviceTier',
    help: 'flex: cheaper, slower model calls for night runs, where the model has the tier (a refusal falls back to default once); default: the standard tier',
    field: (f) => f.serviceTier.optional(),
  },
  // ---- rate limits
  rpm: {
    flags: '--rpm <n>',
    help: "the provider's requests per minute, paced to until its headers say (docs/rate-limits.md)",
    field: (f) => f.positiveNumber('--rpm').optional(),
  },
  tpm: {
    flags: '--tpm <n>',
    help: "the provider's tokens per minute, paced to until its headers say",
    field: (f) => f.positiveNumber('--tpm').optional(),
  },
  // ---- what one run is
  agent: {
    flags: '--agent <id>',
    request: 'agents',
    help: `run only this desk on the market data, with no Director (repeatable): ${deskIds.join(', ')}`,
    field: (f) => f.desks,
    default: [],
    repeatable: true,
  },
  asOf: {
    flags: '--as-of <date>',
    request: 'asOf',
    help: "analyse as of a past session's close on the ticker's exchange (YYYY-MM-DD): nothing from after it",
    // A calendar day here (one wording for every command); checked against each ticker's
    // exchange calendar by resolveRunClock (src/run/as-of.ts).
    field: (f) => f.day('--as-of').optional(),
  },
  refresh: { flags: '--refresh', help: 'bypass the market-data cache', field: (f) => f.flag, request: 'refresh' },
  // ---- blind runs and decision stability (docs/blind.md)
  blind: {
    flags: '--blind',
    request: 'blind',
    help: 'hide the company and the calendar from every model: an alias, prices scaled to 100, session offsets; no search or MCP',
    field: (f) => f.flag,
  },
  samples: {
    flags: '--samples <k>',
    request: 'samples',
    help: "the Director's decision this many times on the same reports; keeps the modal action's median levels",
    field: (f) => f.positiveInteger('--samples'),
    default: '1',
  },
  minAgreement: {
    flags: '--min-agreement <share>',
    request: 'minAgreement',
    help: `with --samples: below this share of samples on one action the run is flagged (default ${defaultMinAgreement})`,
    field: (f) => f.shareOfOne('--min-agreement').optional(),
  },
  // ---- record and replay
  record: {
    flags: '--record <file>',
    request: 'cassette',
    help: helpWording.record('of this run'),
    field: (f) => f.path.optional(),
  },
  replay: {
    flags: '--replay <file>',
    help: 'replay a cassette: no network at all',
    field: (f) => f.path.optional(),
    request: 'cassette',
  },
  demo: {
    flags: '--demo',
    request: 'cassette',
    help: 'replay the bundled demo cassette (synthetic data, no keys needed)',
    field: (f) => f.flag,
  },
  // ---- output
  json: { flags: '--json', help: 'print JSON only', field: (f) => f.flag },
  jsonl: {
    flags: '--jsonl',
    help: 'print one AnalysisResult JSON per line as each ticker finishes',
    field: (f) => f.flag,
  },
  trace: {
    flags: '--trace',
    help: 'print the tool-calling protocol on stderr as it happens',
    field: (f) => f.flag,
  },
  quiet: { flags: '-q, --quiet', help: 'no progress output', field: (f) => f.flag },
  verbose: { flags: '--verbose', help: 'show stack traces on errors', field: (f) => f.flag },
  // ---- saving
  save: {
    flags: '--no-save',
    request: 'save',
    help: helpWording.save('the run', 'runs'),
    field: (f) => f.z.boolean().default(true),
  },
  out: {
    flags: '--out <dir>',
    request: 'out',
    help: 'also write result.json, report.md, report.html, chart.svg and transcript.jsonl here',
    field: (f) => f.path.optional(),
  },
  // ---- many tickers
  universe: {
    flags: '--universe <file>',
    help: helpWording.universe('also analyse the tickers'),
    field: (f) => f.path.optional(),
  },
  resume: {
    flags: '--resume',
    help: 'skip tickers that already have a finished run for the same as-of day',
    field: (f) => f.flag,
  },
  concurrency: {
    flags: '--concurrency <n>',
    help: 'tickers analysed at once',
    field: (f) => f.positiveInteger('--concurrency'),
    default: String(defaultConcurrency),
  },
  // ---- watch
  once: { flags: '--once', help: 'one cycle, then exit (for cron and systemd timers)', field: (f) => f.flag },
  every: {
    flags: '--every <interval>',
    help: 'a cycle every interval (30m, 4h, 1d) until SIGINT or SIGTERM',
    field: (f) => f.interval('--every').optional(),
  },
  maxAge: {
    flags: '--max-age <sessions>',
    help: 'a call older than this many sessions is stale and analysed again',
    field: (f) => f.positiveInteger('--max-age'),
    default: String(defaultTriggerLimits.maxAgeSessions),
  },
  gapSigma: {
    flags: '--gap-sigma <n>',
    help: 'an open this many 20-session daily volatilities from the previous close triggers a run',
    field: (f) => f.positiveNumber('--gap-sigma'),
    default: String(defaultTriggerLimits.gapSigma),
  },
  moveAtr: {
    flags: '--move-atr <n>',
    help: 'a close this many ATRs from the price at the last call triggers a run',
    field: (f) => f.positiveNumber('--move-atr'),
    default: String(defaultTriggerLimits.moveAtr),
  },
  budgetUsd: {
    flags: '--budget-usd <usd>',
    help: "the month's spend on analyses (read from the saved runs): no run starts that could pass it",
    field: (f) => f.positiveNumber('--budget-usd').optional(),
  },
  runMaxCost: {
    flags: '--run-max-cost <usd>',
    help: 'the cap of each analysis: its worst case against the budget',
    field: (f) => f.positiveNumber('--run-max-cost'),
    default: String(defaultRunMaxCostUsd),
  },
  notify: {
    flags: '--notify <url>',
    help: 'POST each cycle with changes to this webhook (JSON with a plain `text`, as Slack and Discord take)',
    field: (f) => f.webhookUrl.optional(),
  },
  notifyFile: {
    flags: '--notify-file <path>',
    help: 'append each cycle with changes to this file as one JSON line',
    field: (f) => f.path.optional(),
  },
  enqueue: {
    flags: '--enqueue',
    help: 'enqueue the triggered analyses as jobs for `autohedge worker` instead of running them here',
    field: (f) => f.flag,
  },
  // ---- queue
  redis: {
    flags: '--redis <url>',
    help: 'Redis URL (else AUTOHEDGE_REDIS_URL, else redis://127.0.0.1:6379)',
    // Checked with AUTOHEDGE_REDIS_URL by redisUrlFrom (src/cli/queue-options.ts).
    field: (f) => f.text.optional(),
  },
  queue: { flags: '--queue <name>', help: 'queue name', field: (f) => f.queueName, default: defaultQueueName },
  stallInterval: {
    flags: '--stall-interval <seconds>',
    help: "a dead worker's job goes back to the queue within about twice this",
    field: (f) => f.seconds('--stall-interval'),
    default: seconds(defaultStallIntervalMs),
  },
  rateLimitPause: {
    flags: '--rate-limit-pause <seconds>',
    help: 'how long the whole queue pauses after a 429 that names no retry-after',
    field: (f) => f.seconds('--rate-limit-pause'),
    default: seconds(defaultRateLimitPauseMs),
  },
  wait: {
    flags: '--wait',
    help: 'wait for the jobs and print each result as it completes, then a summary',
    field: (f) => f.flag,
  },
  attempts: {
    flags: '--attempts <n>',
    help: 'attempts in all for a job that fails for a transient reason',
    field: (f) => f.wholeNumber('--attempts'),
    default: String(defaultAttempts),
  },
  backoff: {
    flags: '--backoff <seconds>',
    help: 'wait before the second attempt, doubling after each',
    field: (f) => f.seconds('--backoff'),
    default: seconds(defaultBackoffMs),
  },
  // ---- evaluate
  since: {
    flags: '--since <date>',
    help: 'only runs as of this day (YYYY-MM-DD) or later',
    field: (f) => f.day('--since').optional(),
  },
  horizon: {
    flags: '--horizon <sessions>',
    help: 'horizons in trading sessions, comma-separated',
    field: (f) => f.sessionList('--horizon', longestHorizon),
    default: defaultHorizons.join(','),
  },
  benchmark: {
    flags: '--benchmark <ticker>',
    help: 'excess returns against this ticker',
    field: (f) => f.text,
    default: defaultBenchmark,
  },
  seed: {
    flags: '--seed <n>',
    help: 'seed of the random baseline and the alpha bootstrap',
    field: (f) => f.seed('--seed'),
    default: String(defaultSeed),
  },
  includeDemo: { flags: '--include-demo', help: 'also score demo runs (synthetic data)', field: (f) => f.flag },
  // ---- portfolio
  holdings: {
    flags: '--holdings <file>',
    help: 'your positions: CSV (symbol,quantity[,costBasis][,currency]; a CASH row) or JSON (docs/portfolio.md); with --demo, a book of cash if left out',
    // Required, except under --demo: the command says so (it knows whether --demo was given).
    field: (f) => f.z.string().min(1).optional(),
  },
  cash: {
    flags: '--cash <usd>',
    help: 'cash in the book, when the holdings file has none',
    field: (f) => f.amount('--cash').optional(),
  },
  // One flag, two commands: `portfolio --runs <ids...>` names runs, `ledger verify --runs` checks them.
  runs: {
    flags: '--runs [ids...]',
    help: 'exactly these saved runs (ids or unique prefixes)',
    field: (f) => f.z.union([f.z.boolean(), f.z.array(f.z.string())]).optional(),
  },
  latest: { flags: '--latest', help: 'the newest decision of every ticker in the run store', field: (f) => f.flag },
  minCashPct: {
    flags: '--min-cash-pct <pct>',
    help: 'cash floor after the trades, % of NAV',
    field: (f) => f.boundedNumber('--min-cash-pct', 0, 100),
    default: String(book.minCashPct),
  },
  maxWeightPct: {
    flags: '--max-weight-pct <pct>',
    help: 'largest weight of one name, % of NAV',
    field: (f) => f.boundedNumber('--max-weight-pct', 0, 100),
    default: String(book.maxWeightPct),
  },
  maxSectorPct: {
    flags: '--max-sector-pct <pct>',
    help: 'largest gross weight of one sector, % of NAV',
    field: (f) => f.boundedNumber('--max-sector-pct', 0, 100),
    default: String(book.maxSectorPct),
  },
  maxGrossPct: {
    flags: '--max-gross-pct <pct>',
    help: 'largest gross exposure (long + short), % of NAV',
    field: (f) => f.boundedNumber('--max-gross-pct', 0, 1000),
    default: String(book.maxGrossPct),
  },
  maxNetPct: {
    flags: '--max-net-pct <pct>',
    help: 'largest net exposure (long − short), % of NAV',
    field: (f) => f.boundedNumber('--max-net-pct', 0, 1000),
    default: String(book.maxNetPct),
  },
  targetVolPct: {
    flags: '--target-vol-pct <pct>',
    help: 'largest annualised volatility of the book, % (Ledoit-Wolf covariance of 252 daily returns; default: none)',
    field: (f) => f.boundedNumber('--target-vol-pct', 0, 1000).optional(),
  },
  maxTurnoverPct: {
    flags: '--max-turnover-pct <pct>',
    help: 'largest one-way turnover of this rebalance, % of NAV (default: none)',
    field: (f) => f.boundedNumber('--max-turnover-pct', 0, 1000).optional(),
  },
  minTradeUsd: {
    flags: '--min-trade-usd <usd>',
    help: 'drop trades smaller than this (unless a limit needs them)',
    field: (f) => f.boundedNumber('--min-trade-usd', 0),
    default: String(book.minTradeUsd),
  },
  baseCurrency: {
    flags: '--base-currency <code>',
    help: "the currency the book is valued in; other listings at the as-of day's FX close from the market data",
    field: (f) =>
      f.z
        .string()
        .trim()
        .regex(/^[A-Za-z]{3}$/, { error: '--base-currency must be a three-letter currency code such as USD' })
        .transform((code) => code.toUpperCase()),
    default: 'USD',
  },
  fractional: { flags: '--fractional', help: 'fractional shares (default: whole shares)', field: (f) => f.flag },
  allowShort: {
    flags: '--allow-short',
    help: 'a SELL may go short to −positionSizePct (default: it only reduces to zero)',
    field: (f) => f.flag,
  },
  includeFlagged: {
    flags: '--include-flagged',
    help: 'also size decisions the guardrails flagged (default: excluded)',
    field: (f) => f.flag,
  },
  analyze: {
    flags: '--analyze',
    help: 'analyse the tickers first (a full, saved run each, as `analyze` makes), then size those decisions',
    field: (f) => f.flag,
  },
  csv: { flags: '--csv', help: 'print the proposed orders as CSV only', field: (f) => f.flag },
  forwardOnly: {
    flags: '--forward-only',
    help: 'score only decisions sealed in the ledger before their outcome (docs/ledger.md)',
    field: (f) => f.flag,
  },
  // ---- ledger anchors (docs/ledger.md): RFC 3161 time-stamps
  tsa: {
    flags: '--tsa <url>',
    help: 'a time-stamp authority to anchor with (repeatable; replaces the defaults and AUTOHEDGE_TSA_URLS)',
    field: (f) => f.text.array(),
    default: [],
    repeatable: true,
  },
  tsaCert: {
    flags: '--tsa-cert <pem>',
    help: "also trust this TSA root certificate (repeatable; kept in the home's anchors/roots/ when anchoring)",
    field: (f) => f.path.array(),
    default: [],
    repeatable: true,
  },
  git: {
    flags: '--git <dir>',
    help: 'a git repository to append the anchored heads to, and commit',
    field: (f) => f.path,
  },
  trustLocalClock: {
    flags: '--trust-local-clock',
    help: "with --forward-only: count a decision by its record's recordedAt (the writer's own clock) instead of an RFC 3161 anchor",
    field: (f) => f.flag,
  },
  // ---- ledger (docs/ledger.md); --head is checked as a hash by the command
  ledger: {
    flags: '--ledger <file>',
    help: 'a ledger or an exported ledger (default: $AUTOHEDGE_HOME/ledger/ledger.jsonl)',
    field: (f) => f.path.optional(),
  },
  publicKey: {
    flags: '--public-key <file>',
    help: 'check every signature with this Ed25519 public key (PEM)',
    field: (f) => f.path.optional(),
  },
  head: {
    flags: '--head <hash>',
    help: 'a head published earlier: the chain must still hold it',
    field: (f) => f.text.optional(),
  },
  // ---- evaluate: attribution (docs/evaluate.md)
  sectorBenchmarks: {
    flags: '--sector-benchmarks',
    help: "also regress on each decision's sector SPDR ETF (XLK, XLF, …)",
    field: (f) => f.flag,
  },
  spreadBps: {
    flags: '--spread-bps <bps>',
    help: 'spread charged on entry and on exit, basis points',
    field: (f) => f.basisPoints('--spread-bps'),
    default: String(defaultSpreadBps),
  },
  slippageBps: {
    flags: '--slippage-bps <bps>',
    help: 'slippage charged on entry and on exit, basis points',
    field: (f) => f.basisPoints('--slippage-bps'),
    default: String(defaultSlippageBps),
  },
  notional: {
    flags: '--notional <usd>',
    help: "the position's dollar size, for the return after the model's bill",
    field: (f) => f.positiveNumber('--notional', 1e12).optional(),
  },
  trials: {
    flags: '--trials <n>',
    help: 'configurations tried, for the Deflated Sharpe (default: the distinct ones evaluated)',
    field: (f) => f.positiveInteger('--trials').optional(),
  },
  resamples: {
    flags: '--resamples <n>',
    help: 'bootstrap resamples for the alpha interval',
    field: (f) => f.positiveInteger('--resamples'),
    default: String(defaultResamples),
  },
  // ---- doctor
  conformance: {
    flags: '--conformance',
    help: 'measure whether this server and model finish a run: structured mode, decision validity over --tries, tool calls, context, speed',
    field: (f) => f.flag,
  },
  tries: {
    flags: '--tries <n>',
    help: 'with --conformance: how many decisions to ask for',
    field: (f) => f.positiveInteger('--tries'),
    default: '3',
  },
  // ---- runs show
  html: { flags: '--html', help: 'print the self-contained HTML report (report.html)', field: (f) => f.flag },
  // ---- view (the local read-only site)
  port: {
    flags: '--port <n>',
    help: 'the port to listen on (0: any free one)',
    field: (f) => f.port,
    default: '8787',
  },
  host: {
    flags: '--host <addr>',
    help: 'the address to bind: loopback unless you name another (then anyone who can reach it reads your runs)',
    field: (f) => f.text.min(1),
    default: '127.0.0.1',
  },
  open: { flags: '--open', help: 'open the site in the default browser', field: (f) => f.flag },
  bundle: {
    flags: '--bundle <dir>',
    help: 'write the pages as a static site into a new folder (relative links, the ledger export and its anchors) instead of serving',
    field: (f) => f.path.optional(),
  },
} as const satisfies Record<string, OptionEntry>;

export type OptionKey = keyof typeof optionCatalogue;

/** Options that travel together; a group's heading titles them in --help. */
export const optionGroups = {
  model: { heading: 'Model', options: ['model', 'baseUrl'] },
  tools: { heading: 'Tools', options: ['search', 'mcpConfig'] },
  guardrails: { heading: 'Guardrails and spending', options: ['maxPosition', 'maxRisk', 'minRewardRisk', 'maxCost'] },
  rateLimits: { heading: 'Rate limits', options: ['rpm', 'tpm'] },
  tier: { heading: 'Service tier', options: ['serviceTier'] },
  run: { heading: 'The run', options: ['agent', 'asOf', 'refresh'] },
  trust: { heading: 'Blind runs and stability', options: ['blind', 'samples', 'minAgreement'] },
  replay: { heading: 'Record and replay', options: ['record', 'replay', 'demo'] },
  output: { heading: 'Output', options: ['json', 'jsonl', 'trace', 'quiet'] },
  save: { heading: 'Saving', options: ['save', 'out'] },
  universe: { heading: 'Many tickers', options: ['universe', 'resume', 'concurrency'] },
  queue: { heading: 'Queue', options: ['redis', 'queue'] },
  watch: {
    heading: 'Watch',
    options: [
      'once',
      'every',
      'maxAge',
      'gapSigma',
      'moveAtr',
      'budgetUsd',
      'runMaxCost',
      'notify',
      'notifyFile',
      'enqueue',
    ],
  },
  worker: { heading: 'Worker', options: ['stallInterval', 'rateLimitPause'] },
  enqueue: { heading: 'Jobs', options: ['wait', 'attempts', 'backoff'] },
  evaluate: {
    heading: 'Scoring',
    options: ['since', 'horizon', 'benchmark', 'seed', 'includeDemo', 'forwardOnly', 'trustLocalClock'],
  },
  book: {
    heading: 'The book',
    options: [
      'holdings',
      'cash',
      'baseCurrency',
      'runs',
      'latest',
      'analyze',
      'includeFlagged',
      'allowShort',
      'fractional',
    ],
  },
  bookOutput: { heading: 'Output', options: ['csv'] },
  limits: {
    heading: 'Limits',
    options: [
      'minCashPct',
      'maxWeightPct',
      'maxSectorPct',
      'maxGrossPct',
      'maxNetPct',
      'targetVolPct',
      'maxTurnoverPct',
      'minTradeUsd',
    ],
  },
  attribution: {
    heading: 'Attribution',
    options: ['sectorBenchmarks', 'spreadBps', 'slippageBps', 'notional', 'trials', 'resamples'],
  },
  show: { heading: 'Format', options: ['html'] },
  ledger: { heading: 'Checks', options: ['ledger', 'publicKey', 'head'] },
  view: { heading: 'Site', options: ['port', 'host', 'open', 'bundle'] },
  anchors: { heading: 'Anchors', options: ['tsa', 'tsaCert', 'git'] },
  // Every command takes these.
  conformance: { heading: 'Conformance', options: ['conformance', 'tries'] },
  common: { heading: 'Options', options: ['verbose'] },
} as const satisfies Record<string, { heading: string; options: readonly OptionKey[] }>;

export type GroupName = keyof typeof optionGroups;

/** The parsed value of each option. */
export type OptionValues<Key extends OptionKey> = {
  [K in Key]: import('zod').output<ReturnType<(typeof optionCatalogue)[K]['field']>>;
};
