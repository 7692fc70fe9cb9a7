/**
 * `npm run bench`: autohedge measured against its physical limit.
 *
 * A loopback OpenAI-compatible server answers every model call after a fixed latency;
 * Exa and Yahoo answer locally after their own small latencies. Real analyses run in a
 * child process (the real openai, exa-js and yahoo-finance2 clients over loopback), the
 * CLI runs as a child process, and one table compares each figure with its target.
 * A report, not a test: it always exits 0, and says plainly when a target is missed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startExaStub, type ExaStub } from '../testkit/exa-server.js';
import {
  criticalPath,
  describeChain,
  labelOf,
  modelCalls,
  observedSerialChain,
  type CallRecord,
  type CriticalPath,
} from './critical-path.js';
import type { DriverConfig, DriverOutput } from './driver.js';
import { measureClaims } from './claims.js';
import { measureEvaluate } from './evaluate.js';
import { measureRunsList } from './runs-list.js';
import { measureView } from './view.js';
import { median, run } from './measure.js';
import {
  callsByTicker,
  startModelServer,
  tickerOf,
  type ModelServer,
  type ModelServerOptions,
} from './model-server.js';
import { achievedRatio, describeQuotaFigure, quotaFigure, refusedShare, type QuotaFigure } from './rate-limits.js';
import { measureSharedQuota, measureWorkers, universeTickers } from './universe.js';
import { cachedShare, layoutCost, type LayoutCost } from './cache-cost.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..', '..', '..');
const cliBin = path.join(repoRoot, 'bin', 'autohedge.js');
const demoCassette = path.join(repoRoot, 'demo', 'demo.cassette.json');
/** The date our Yahoo fixtures end on (tests/fixtures/market/generate.mjs). */
const fixturesAsOf = '2025-10-10T21:00:00.000Z';

interface Settings {
  latencyMs: number;
  runs: number;
  yahooLatencyMs: number;
  exaLatencyMs: number;
  tickers: number;
  concurrency: number;
  rateLimitShare: number;
  retryAfterMs: number;
  only: Set<string>;
  /** P6: tickers in the streamed universe, and tickers at once. */
  universeTickers: number;
  universeConcurrency: number;
  /** P7: tickers on the queue, and each worker's concurrency. */
  queueTickers: number;
  workerConcurrency: number;
  /** P8: the universe against an enforced quota, its concurrency, the quota per window, and the two-worker tickers. */
  quotaTickers: number;
  quotaConcurrency: number;
  quotaTokens: number;
  quotaRequests: number;
  quotaWindowMs: number;
  quotaWorkerTickers: number;
  timeline: boolean;
  /** Write a V8 CPU profile of every analysis process here. */
  profileDir: string | null;
}

const usage = `npm run bench -- [options]

  --latency-ms <ms>        every model call's answer time (default 300)
  --runs <n>               runs per figure; medians are reported (default 5)
  --exa-latency-ms <ms>    each Exa search (default 20)
  --yahoo-latency-ms <ms>  each Yahoo exchange (default 5)
  --tickers <n>            P4: tickers analysed together (default 10)
  --concurrency <n>        P4: tickers at once (default 4)
  --rate-limit <share>     P4: share of model calls refused with 429 (default 0.1)
  --retry-after-ms <ms>    P4: the 429's retry-after-ms (default 20)
  --universe <n>           P6: tickers in the streamed universe (default 300)
  --universe-concurrency <n>  P6: tickers at once (default 8)
  --queue-tickers <n>      P7: tickers enqueued for the workers (default 48)
  --worker-concurrency <n> P7: analyses each worker runs at once (default 4)
  --quota-tickers <n>      P8: tickers in the universe run into the quota (default 200)
  --quota-concurrency <n>  P8: tickers at once (default 16)
  --quota-tokens <n>       P8: the quota's tokens per window, per model (default 100000)
  --quota-requests <n>     P8: the quota's requests per window, per model (default 400)
  --quota-window-ms <ms>   P8: the quota's window, a bench "minute" (default 4000)
  --quota-worker-tickers <n>  P8: tickers for the two workers sharing one Redis (default 48)
  --only <P1,P2,...>       measure only these figures (P9: evaluate over 2,000 saved runs; P10: MCP runs_list over 300;
                           P11: view runs list over 2,000; P12/P13: claims; P14: cached share and cost per ticker of
                           20 tickers under OpenAI's caching rule)
  --timeline               print when each call of a P1 analysis was made and answered, and P4's tickers
  --profile <dir>          write a CPU profile (.cpuprofile) of each analysis process to <dir>
`;

function settingsFrom(argv: string[]): Settings | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      'latency-ms': { type: 'string', default: '300' },
      runs: { type: 'string', default: '5' },
      'exa-latency-ms': { type: 'string', default: '20' },
      'yahoo-latency-ms': { type: 'string', default: '5' },
      tickers: { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '4' },
      'rate-limit': { type: 'string', default: '0.1' },
      'retry-after-ms': { type: 'string', default: '20' },
      universe: { type: 'string', default: '300' },
      'universe-concurrency': { type: 'string', default: '8' },
      'queue-tickers': { type: 'string', default: '48' },
      'worker-concurrency': { type: 'string', default: '4' },
      'quota-tickers': { type: 'string', default: '200' },
      'quota-concurrency': { type: 'string', default: '16' },
      'quota-tokens': { type: 'string', default: '100000' },
      'quota-requests': { type: 'string', default: '400' },
      'quota-window-ms': { type: 'string', default: '4000' },
      'quota-worker-tickers': { type: 'string', default: '48' },
      only: { type: 'string', default: 'P1,P2,P3,P4,P5,P6,P7,P8,P9,P10,P11,P12,P13,P14' },
      timeline: { type: 'boolean', default: false },
      profile: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return null;
  const number = (name: keyof typeof values, minimum: number) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < minimum) throw new Error(`--${name} must be a number ≥ ${minimum}`);
    return value;
  };
  return {
    latencyMs: number('latency-ms', 1),
    runs: Math.round(number('runs', 1)),
    exaLatencyMs: number('exa-latency-ms', 0),
    yahooLatencyMs: number('yahoo-latency-ms', 0),
    tickers: Math.round(number('tickers', 1)),
    concurrency: Math.round(number('concurrency', 1)),
    rateLimitShare: Math.min(0.5, number('rate-limit', 0)),
    retryAfterMs: number('retry-after-ms', 0),
    universeTickers: Math.round(number('universe', 1)),
    universeConcurrency: Math.round(number('universe-concurrency', 1)),
    queueTickers: Math.round(number('queue-tickers', 1)),
    workerConcurrency: Math.round(number('worker-concurrency', 1)),
    quotaTickers: Math.round(number('quota-tickers', 1)),
    quotaConcurrency: Math.round(number('quota-concurrency', 1)),
    quotaTokens: Math.round(number('quota-tokens', 1_000)),
    quotaRequests: Math.round(number('quota-requests', 1)),
    quotaWindowMs: Math.round(number('quota-window-ms', 100)),
    quotaWorkerTickers: Math.round(number('quota-worker-tickers', 1)),
    only: new Set(
      String(values.only)
        .toUpperCase()
        .split(',')
        .map((figure) => figure.trim()),
    ),
    timeline: values.timeline === true,
    profileDir: typeof values.profile === 'string' ? path.resolve(values.profile) : null,
  };
}

// ---- the analyses (P1, P4, P5) ------------------------------------------------------------

/** Five results with highlights as long as the tool keeps them. */
const exaResults = {
  requestId: 'bench',
  resolvedSearchType: 'neural',
  results: Array.from({ length: 5 }, (_, index) => ({
    id: `https://news.example.com/acme-${index + 1}`,
    title: `Acme Robotics: coverage item ${index + 1}`,
    url: `https://news.example.com/acme-${index + 1}`,
    publishedDate: `2025-10-0${index + 1}T13:30:00.000Z`,
    author: 'Bench Writer',
    highlights: [
      'Acme Robotics reported quarterly revenue above analyst expectations, helped by industrial automation orders. '.repeat(
        4,
      ),
      'Management raised full-year guidance but flagged component costs and a longer sales cycle in Europe. '.repeat(4),
    ],
  })),
};

async function driver(settings: Settings, config: Omit<DriverConfig, 'asOf'>): Promise<DriverOutput> {
  const full: DriverConfig = { ...config, asOf: fixturesAsOf };
  const profile = settings.profileDir ? ['--cpu-prof', '--cpu-prof-dir', settings.profileDir] : [];
  // A universe reports its live heap after full collections, which needs gc() exposed.
  const gc = config.mode === 'universe' ? ['--expose-gc'] : [];
  const child = await run(process.execPath, [
    ...profile,
    ...gc,
    path.join(benchDir, 'driver.js'),
    JSON.stringify(full),
  ]);
  if (child.code !== 0) throw new Error(`the analysis process exited with ${child.code}:\n${child.stderr.trim()}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as DriverOutput;
}

async function withServers<T>(
  settings: Settings,
  rateLimitShare: number,
  work: (model: ModelServer, exa: ExaStub) => Promise<T>,
  quota?: ModelServerOptions['quota'],
): Promise<T> {
  const model = await startModelServer({
    latencyMs: settings.latencyMs,
    rateLimitShare,
    retryAfterMs: settings.retryAfterMs,
    ...(quota ? { quota } : {}),
  });
  const exa = await startExaStub({ body: exaResults });
  try {
    return await work(model, exa);
  } finally {
    await Promise.all([model.close(), exa.close()]);
  }
}

const addresses = (settings: Settings, model: ModelServer, exa: ExaStub) => ({
  openaiURL: model.url,
  exaURL: exa.baseURL,
  yahooLatencyMs: settings.yahooLatencyMs,
  exaLatencyMs: settings.exaLatencyMs,
});

interface SingleRun {
  ticker: string;
  status: string;
  wallMs: number;
  /** Model calls with the Yahoo and Exa waits they depend on. */
  path: CriticalPath;
  /** Model calls alone. */
  modelPath: CriticalPath;
  /** Without Sentiment: market → plan → desk → decision. */
  directorPath: CriticalPath;
  /** A design that starts Sentiment only once the plan exists. */
  naive: CriticalPath;
  observed: string[];
  sentimentCalls: number;
  tokensServer: number;
  tokensReported: number;
  /** One line per moment of the analysis, in ms from its start. */
  timeline: string[];
}

interface SingleFigures {
  cold: SingleRun;
  runs: SingleRun[];
}

async function measureSingle(settings: Settings): Promise<SingleFigures> {
  const tickers = ['WARM', ...Array.from({ length: settings.runs }, (_, index) => `RUN${index + 1}`)];
  return withServers(settings, 0, async (model, exa) => {
    const output = await driver(settings, {
      mode: 'sequential',
      tickers,
      concurrency: 1,
      ...addresses(settings, model, exa),
    });
    const calls = callsByTicker(model);
    const runs = output.runs.map((measured): SingleRun => {
      const own = calls.get(measured.ticker) ?? [];
      const waits = {
        market: measured.waits.filter((wait) => wait.service === 'yahoo'),
        tools: measured.waits.filter((wait) => wait.service === 'exa'),
      };
      return {
        ticker: measured.ticker,
        status: measured.error ? `${measured.status} (${measured.error})` : measured.status,
        wallMs: measured.wallMs,
        path: criticalPath(own, waits),
        modelPath: criticalPath(own),
        directorPath: criticalPath(
          own.filter((call) => call.agent !== 'sentiment'),
          { market: waits.market },
        ),
        naive: criticalPath(own, { ...waits, independentDesks: [] }),
        observed: observedSerialChain(own),
        sentimentCalls: own.filter((call) => call.agent === 'sentiment').length,
        tokensServer: own.reduce((total, call) => total + call.tokens, 0),
        tokensReported: measured.promptTokens,
        timeline: timelineOf(measured, own),
      };
    });
    return { cold: runs[0]!, runs: runs.slice(1) };
  });
}

function timelineOf(measured: DriverOutput['runs'][number], calls: CallRecord[]): string[] {
  const at = (time: number) => String(time - measured.startedAt).padStart(6);
  const events: Array<{ at: number; line: string }> = [
    { at: measured.startedAt, line: 'analyze() called' },
    { at: measured.snapshotAt, line: 'market snapshot in' },
    { at: measured.endedAt, line: 'analyze() returned' },
  ];
  for (const wait of measured.waits)
    events.push({
      at: wait.startedAt,
      line: `${wait.service.padEnd(10)} asked, answered at ${at(wait.endedAt).trim()} (${wait.endedAt - wait.startedAt} ms)`,
    });
  for (const call of calls) {
    events.push({
      at: call.receivedAt,
      line: `${labelOf(call).padEnd(10)} arrived, answered at ${at(call.answeredAt).trim()} (${call.answeredAt - call.receivedAt} ms)`,
    });
  }
  return events.sort((a, b) => a.at - b.at).map((event) => `${at(event.at)}  ${event.line}`);
}

interface ManyRun {
  wallMs: number;
  ratio: number;
  completed: number;
  rateLimited: number;
  failures: string[];
  /** One line per ticker: when it ran, in ms from the first start, and its 429s. */
  timeline: string[];
}

/** `tickerPathMs`: one ticker's critical path, alone (P1's median). */
async function measureMany(settings: Settings, tickerPathMs: number): Promise<ManyRun[]> {
  const results: ManyRun[] = [];
  const waves = Math.ceil(settings.tickers / settings.concurrency);
  for (let index = 0; index < settings.runs; index += 1) {
    const tickers = Array.from(
      { length: settings.tickers },
      (_, position) => `MANY${String(position + 1).padStart(2, '0')}`,
    );
    results.push(
      await withServers(settings, settings.rateLimitShare, async (model, exa) => {
        const output = await driver(settings, {
          mode: 'many',
          tickers,
          concurrency: settings.concurrency,
          ...addresses(settings, model, exa),
        });
        const failures = output.runs
          .filter((outcome) => outcome.status !== 'ok')
          .map((outcome) => `${outcome.ticker}: ${outcome.status} ${outcome.error ?? ''}`.trim());
        const refused = model.requests
          .filter((request) => model.rateLimited.has(request.index))
          .map((request) => tickerOf(request));
        const first = Math.min(...output.runs.map((outcome) => outcome.startedAt));
        const calls = callsByTicker(model);
        const timeline = output.runs.map((outcome) => {
          const count = refused.filter((ticker) => ticker === outcome.ticker).length;
          const modelMs = criticalPath(calls.get(outcome.ticker) ?? []).ms;
          return `${outcome.ticker}  ${String(outcome.startedAt - first).padStart(5)} → ${String(outcome.endedAt - first).padStart(5)} ms  (${Math.round(outcome.wallMs)} ms; its model calls' path ${modelMs} ms; ${count} × 429)`;
        });
        return {
          wallMs: output.wallMs,
          ratio: output.wallMs / (waves * tickerPathMs),
          completed: output.runs.length - failures.length,
          rateLimited: model.rateLimited.size,
          failures,
          timeline,
        };
      }),
    );
  }
  return results;
}

// ---- the CLI (P2, P3) -----------------------------------------------------------------------

interface HelpFigures {
  helpMs: number;
  nodeMs: number;
  /** The median of each pair's ratio: a pair shares whatever load the machine had at that moment. */
  ratio: number;
  spawns: number;
}

async function measureHelp(settings: Settings): Promise<HelpFigures> {
  const spawns = Math.max(30, settings.runs * 6);
  const help: number[] = [];
  const bare: number[] = [];
  const ratios: number[] = [];
  // Interleaved, so a burst of load elsewhere on the machine hits both alike.
  for (let index = 0; index < spawns; index += 1) {
    const shown = await run(process.execPath, [cliBin, '--help']);
    if (shown.code !== 0 || !shown.stdout.includes('Usage: autohedge'))
      throw new Error(`autohedge --help failed (exit ${shown.code}): ${shown.stderr.trim()}`);
    const bareMs = (await run(process.execPath, ['-e', '0'])).wallMs;
    help.push(shown.wallMs);
    bare.push(bareMs);
    ratios.push(shown.wallMs / bareMs);
  }
  return { helpMs: median(help), nodeMs: median(bare), ratio: median(ratios), spawns };
}

type DemoFigures = { available: false } | { available: true; wallMs: number; rssMb: number; failures: string[] };

async function measureDemo(settings: Settings): Promise<DemoFigures> {
  if (!existsSync(demoCassette)) return { available: false };
  const timeTool = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const walls: number[] = [];
  const peaks: number[] = [];
  const failures: string[] = [];
  for (let index = 0; index < settings.runs; index += 1) {
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-bench-home-'));
    const rssFile = path.join(home, 'max-rss');
    // A user's --demo run, saving the run as it does by default, into a throwaway home.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      AUTOHEDGE_HOME: home,
      NO_COLOR: '1',
      AUTOHEDGE_BENCH_RSS_FILE: rssFile,
    };
    delete env['OPENAI_API_KEY'];
    delete env['EXA_API_KEY'];
    const cli = [cliBin, 'analyze', 'ACME', '--demo'];
    try {
      const child = timeTool
        ? await run(timeTool, ['-v', process.execPath, ...cli], { env, cwd: home })
        : await run(process.execPath, ['--import', pathToFileURL(path.join(benchDir, 'max-rss.js')).href, ...cli], {
            env,
            cwd: home,
          });
      if (child.code !== 0) failures.push(`exit ${child.code}: ${lastLines(child.stderr)}`);
      walls.push(child.wallMs);
      const kilobytes = timeTool
        ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderr)?.[1])
        : Number(readFileSync(rssFile, 'utf8'));
      peaks.push(kilobytes / 1024);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  return { available: true, wallMs: median(walls), rssMb: median(peaks), failures };
}

function lastLines(text: string): string {
  return text
    .trim()
    .split('\n')
    .filter((line) => !/^\s+\S.*: /.test(line) && !line.includes('Command being timed'))
    .slice(-2)
    .join(' / ');
}

// ---- the report -------------------------------------------------------------------------------

interface Row {
  id: string;
  measure: string;
  value: string;
  target: string;
  /** null: not measured. */
  pass: boolean | null;
}

const milliseconds = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const ratio = (value: number) => value.toFixed(2);

function printTable(rows: Row[]): void {
  const header: Row = { id: '', measure: 'measure', value: 'value', target: 'target', pass: null };
  const cells = (row: Row) => [
    row.id,
    row.measure,
    row.value,
    row.target,
    row === header ? 'result' : row.pass === null ? 'n/a' : row.pass ? 'PASS' : 'FAIL',
  ];
  const table = [header, ...rows].map(cells);
  const widths = table[0]!.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
  for (const [index, line] of table.entries()) {
    console.log(
      line
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

async function main(): Promise<void> {
  const settings = settingsFrom(process.argv.slice(2));
  if (!settings) {
    process.stdout.write(usage);
    return;
  }
  const wants = (figure: string) => settings.only.has(figure);
  const processor = cpus();
  console.log(
    `autohedge bench — ${processor.length} cores (${processor[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    `model latency ${settings.latencyMs} ms per call, Exa ${settings.exaLatencyMs} ms per search, Yahoo ${settings.yahooLatencyMs} ms per exchange; medians of ${settings.runs} runs\n`,
  );

  const rows: Row[] = [];
  const notes: string[] = [];
  const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

  /** A figure that could not be measured is a missed target, and the others still run. */
  const attempt = async (figures: string[], measure: () => Promise<void>) => {
    try {
      await measure();
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      for (const id of figures.filter(wants))
        rows.push({ id, measure: 'could not be measured', value: message, target: '', pass: false });
      notes.push(`${figures.join('/')}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  let single: SingleFigures | null = null;
  await attempt(['P1', 'P5'], async () => {
    if (!wants('P1') && !wants('P4') && !wants('P5') && !wants('P6')) return;
    progress(`P1/P5: ${settings.runs + 1} analyses one after another (the first warms up)…`);
    single = await measureSingle(settings);
    const runs = single.runs;
    const typical = [...runs].sort((a, b) => a.wallMs / a.path.ms - b.wallMs / b.path.ms)[Math.floor(runs.length / 2)]!;
    const failed = runs.filter((entry) => entry.status !== 'ok');
    if (wants('P1')) {
      const value = median(runs.map((entry) => entry.wallMs / entry.path.ms));
      rows.push({
        id: 'P1',
        measure: 'one analysis ÷ critical path',
        value: `${ratio(value)}  (${milliseconds(median(runs.map((entry) => entry.wallMs)))} / ${milliseconds(median(runs.map((entry) => entry.path.ms)))})`,
        target: '≤ 1.05',
        pass: value <= 1.05 && failed.length === 0,
      });
      const calls = modelCalls(typical.path.chain);
      const naiveCalls = modelCalls(typical.naive.chain);
      notes.push(
        `critical path: ${calls.length} model calls — ${describeChain(typical.path.chain)}, ${milliseconds(typical.path.ms)} (model calls ${milliseconds(typical.path.modelMs)}, Yahoo and Exa ${milliseconds(typical.path.ms - typical.path.modelMs)})`,
        `  the Director's chain: ${describeChain(typical.directorPath.chain)}, ${milliseconds(typical.directorPath.ms)}; Sentiment's ${typical.sentimentCalls} calls run alongside the plan`,
        `  ÷ model calls alone (${milliseconds(median(runs.map((entry) => entry.modelPath.ms)))}): ${ratio(median(runs.map((entry) => entry.wallMs / entry.modelPath.ms)))}`,
        `  observed: the longest run of model calls made one after another was ${typical.observed.length} (${describeChain(typical.observed)})`,
        `  before (Sentiment waiting for the plan): ${naiveCalls.length} model calls (${describeChain(naiveCalls)}), ${milliseconds(typical.naive.ms)}; after: ${calls.length}, ${milliseconds(typical.path.ms)}`,
        `  first analysis in a fresh process (loads the SDKs): ${milliseconds(single.cold.wallMs)}, ratio ${ratio(single.cold.wallMs / single.cold.path.ms)} (not in the median)`,
      );
      if (settings.timeline)
        notes.push(
          `timeline of ${typical.ticker} (ms from the call to analyze()):`,
          ...typical.timeline.map((line) => `  ${line}`),
          `timeline of the first analysis:`,
          ...single.cold.timeline.map((line) => `  ${line}`),
        );
      if (typical.observed.length > calls.length)
        notes.push('MISSED: the run made more model calls one after another than the pipeline needs to');
    }
    if (wants('P5')) {
      const tokens = median(runs.map((entry) => entry.tokensServer));
      const reported = median(runs.map((entry) => entry.tokensReported));
      rows.push({
        id: 'P5',
        measure: 'input tokens per ticker',
        value: tokens.toLocaleString('en-US'),
        target: '≤ 30,000',
        pass: tokens <= 30_000,
      });
      notes.push(
        `P5: ceil(characters / 4) per request — message text, tool-call arguments, tool and response-format definitions — from the bodies the model server received; the run's own usage (the server reports that count) totals ${reported.toLocaleString('en-US')}`,
      );
    }
    for (const entry of failed) notes.push(`MISSED: analysis ${entry.ticker} ended ${entry.status}`);
  });

  await attempt(['P2'], async () => {
    if (!wants('P2')) return;
    progress('P2: autohedge --help and node -e 0, interleaved…');
    const help = await measureHelp(settings);
    const value = help.ratio;
    rows.push({
      id: 'P2',
      measure: 'autohedge --help ÷ node -e 0',
      value: `${ratio(value)}  (${milliseconds(help.helpMs)} / ${milliseconds(help.nodeMs)}, ${help.spawns} spawns each)`,
      target: '≤ 1.5',
      pass: value <= 1.5,
    });
  });

  await attempt(['P3'], async () => {
    if (!wants('P3')) return;
    progress('P3: analyze ACME --demo through the built CLI…');
    const demo = await measureDemo(settings);
    if (!demo.available) {
      rows.push({
        id: 'P3',
        measure: '--demo replay: wall time',
        value: 'n/a (no demo cassette)',
        target: '≤ 1 s',
        pass: null,
      });
      rows.push({
        id: 'P3',
        measure: '--demo replay: peak RSS',
        value: 'n/a (no demo cassette)',
        target: '≤ 150 MB',
        pass: null,
      });
    } else {
      const ok = demo.failures.length === 0;
      rows.push({
        id: 'P3',
        measure: '--demo replay: wall time',
        value: `${(demo.wallMs / 1000).toFixed(2)} s`,
        target: '≤ 1 s',
        pass: ok && demo.wallMs <= 1000,
      });
      rows.push({
        id: 'P3',
        measure: '--demo replay: peak RSS',
        value: `${Math.round(demo.rssMb)} MB`,
        target: '≤ 150 MB',
        pass: ok && demo.rssMb <= 150,
      });
      for (const failure of [...new Set(demo.failures)]) notes.push(`MISSED: the --demo run failed: ${failure}`);
    }
  });

  await attempt(['P4'], async () => {
    if (!wants('P4')) return;
    if (!single) throw new Error("needs one ticker's critical path from P1, which could not be measured");
    const tickerPathMs = median(single.runs.map((entry) => entry.path.ms));
    progress(
      `P4: ${settings.tickers} tickers at concurrency ${settings.concurrency}, ${Math.round(settings.rateLimitShare * 100)} % of model calls refused with 429…`,
    );
    const many = await measureMany(settings, tickerPathMs);
    const value = median(many.map((entry) => entry.ratio));
    const completed = Math.min(...many.map((entry) => entry.completed));
    const waves = Math.ceil(settings.tickers / settings.concurrency);
    rows.push({
      id: 'P4',
      measure: `${settings.tickers} tickers @ ${settings.concurrency}, ${Math.round(settings.rateLimitShare * 100)} % 429 ÷ ${waves} × path`,
      value: `${ratio(value)}  (${milliseconds(median(many.map((entry) => entry.wallMs)))} / ${waves} × ${milliseconds(tickerPathMs)}), ${completed}/${settings.tickers} ok`,
      target: '≤ 1.15, all ok',
      pass: value <= 1.15 && completed === settings.tickers,
    });
    notes.push(
      `P4: ${median(many.map((entry) => entry.rateLimited))} model calls per run answered 429 (retry-after-ms ${settings.retryAfterMs}); one ticker's path is P1's, measured alone`,
    );
    if (settings.timeline) {
      const typical = [...many].sort((a, b) => a.ratio - b.ratio)[Math.floor(many.length / 2)]!;
      notes.push('P4 timeline of the median run:', ...typical.timeline.map((line) => `  ${line}`));
    }
    for (const failure of [...new Set(many.flatMap((entry) => entry.failures))])
      notes.push(`MISSED: P4 ticker ${failure}`);
  });

  await attempt(['P6'], async () => {
    if (!wants('P6')) return;
    if (!single) throw new Error("needs one ticker's critical path from P1, which could not be measured");
    const tickerPathMs = median(single.runs.map((entry) => entry.path.ms));
    progress(
      `P6: a ${settings.universeTickers}-ticker universe at concurrency ${settings.universeConcurrency}, streamed (JSONL out, each run saved, none kept)…`,
    );
    const output = await withServers(settings, 0, (model, exa) =>
      driver(settings, {
        mode: 'universe',
        tickers: universeTickers(settings.universeTickers),
        concurrency: settings.universeConcurrency,
        ...addresses(settings, model, exa),
      }),
    );
    const waves = Math.ceil(settings.universeTickers / settings.universeConcurrency);
    const value = output.wallMs / (waves * tickerPathMs);
    const ok = output.statuses?.ok ?? 0;
    const peak = output.peakRssMb ?? { firstThird: Number.NaN, end: Number.NaN };
    const heap = output.heapAfterGcMb ?? { firstThird: Number.NaN, end: Number.NaN };
    rows.push({
      id: 'P6',
      measure: `${settings.universeTickers}-ticker universe @ ${settings.universeConcurrency} ÷ ${waves} × path`,
      value: `${ratio(value)}  (${milliseconds(output.wallMs)} / ${waves} × ${milliseconds(tickerPathMs)}), ${ok}/${settings.universeTickers} ok`,
      target: '≤ 1.2, all ok',
      pass: value <= 1.2 && ok === settings.universeTickers,
    });
    rows.push({
      id: 'P6',
      measure: `${settings.universeTickers}-ticker universe: peak RSS`,
      value: `${Math.round(peak.end)} MB`,
      target: '≤ 250 MB',
      pass: peak.end <= 250,
    });
    notes.push(
      `P6: after the first third of the universe / at its end: peak RSS ${Math.round(peak.firstThird)} / ${Math.round(peak.end)} MB, live heap after a full GC ${heap.firstThird.toFixed(1)} / ${heap.end.toFixed(1)} MB (nothing keeps the results); statuses ${JSON.stringify(output.statuses)}`,
    );
  });

  await attempt(['P7'], async () => {
    if (!wants('P7')) return;
    progress(
      `P7: ${settings.queueTickers} tickers on a real Redis queue, 1 worker process then 2, each at concurrency ${settings.workerConcurrency}…`,
    );
    const figure = await withServers(settings, 0, (model, exa) =>
      measureWorkers(addresses(settings, model, exa), settings.queueTickers, settings.workerConcurrency),
    );
    if (!figure) {
      rows.push({
        id: 'P7',
        measure: '2 workers vs 1: speed-up',
        value: 'n/a (redis-server not installed)',
        target: '≥ 1.8',
        pass: null,
      });
      return;
    }
    const speedUp = figure.wallMs[1] / figure.wallMs[2];
    rows.push({
      id: 'P7',
      measure: `2 workers vs 1 @ ${figure.concurrency} each, ${figure.tickers} tickers: speed-up`,
      value: `${ratio(speedUp)}  (${milliseconds(figure.wallMs[1])} / ${milliseconds(figure.wallMs[2])})`,
      target: '≥ 1.8, all ok',
      pass: speedUp >= 1.8 && figure.failures.length === 0,
    });
    for (const failure of [...new Set(figure.failures)].slice(0, 5)) notes.push(`MISSED: P7 job ${failure}`);
  });

  await attempt(['P8'], async () => {
    if (!wants('P8')) return;
    await measureAtQuota(settings, rows, notes, progress);
  });

  await attempt(['P9'], async () => {
    if (!wants('P9')) return;
    progress('P9: evaluate over 2,000 saved runs of 260 bars, prices in memory…');
    const figure = await measureEvaluate();
    const targetMs = 5_000;
    rows.push({
      id: 'P9',
      measure: `evaluate: ${figure.runs.toLocaleString('en-US')} runs scored and summarised (3 horizons, bootstrap), no fetch`,
      // CPU time is the figure: on a shared machine the wall clock also measures everyone else.
      value: `${milliseconds(figure.cpuMs)} CPU (${ratio(figure.cpuMs / targetMs)} of target), ${milliseconds(figure.wallMs)} wall`,
      target: `< ${milliseconds(targetMs)}`,
      pass: figure.cpuMs < targetMs && figure.scored > 0,
    });
    const uncached = figure.formatterMs * figure.barsPerRun * figure.runs;
    notes.push(
      `P9: ${(figure.wallMs / figure.runs).toFixed(2)} ms a run; a new Intl.DateTimeFormat costs ${figure.formatterMs.toFixed(3)} ms here, so one per bar (before the cache) would add ~${milliseconds(uncached)} (${ratio(uncached / figure.wallMs)}× today's whole evaluation); ${figure.scored} positions scored at 5 sessions`,
    );
  });

  await attempt(['P10'], async () => {
    if (!wants('P10')) return;
    progress('P10: MCP runs_list over 300 saved runs, 400 calls at once, against the built `autohedge mcp`…');
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-bench-runs-list-'));
    try {
      await measureRunsListFigure(home, rows, notes);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  await attempt(['P11'], async () => {
    if (!wants('P11')) return;
    progress('P11: autohedge view, the runs list over 2,000 saved runs, against the built CLI…');
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-bench-view-'));
    try {
      const figure = await measureView(cliBin, home);
      // Against the cold read, as P10: on a shared machine an absolute figure measures everyone else too.
      const slowest = Math.max(figure.warmMs, figure.filteredMs, figure.lastPageMs);
      rows.push({
        id: 'P11',
        measure: `view: runs list page over ${figure.runs.toLocaleString('en-US')} runs, warm ÷ the cold first page`,
        value: `${ratio(slowest / figure.coldMs)}  (warm ${figure.warmMs.toFixed(1)} ms, filtered ${figure.filteredMs.toFixed(1)} ms, last page ${figure.lastPageMs.toFixed(1)} ms / ${milliseconds(figure.coldMs)}), ${figure.rows} rows`,
        target: '≤ 0.05, 50 rows',
        pass: slowest / figure.coldMs <= 0.05 && figure.rows === 50,
      });
      notes.push(
        `P11: the first runs page (the run index reads every result.json once) took ${milliseconds(figure.coldMs)}; later pages only stat each result.json`,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  await attempt(['P12', 'P13'], async () => {
    if (!wants('P12') && !wants('P13')) return;
    progress('P12/P13: the claims checker on its case set, and on a text of 3,000 figures…');
    claimsRows(measureClaims(), rows, notes);
  });

  await attempt(['P14'], async () => {
    if (!wants('P14')) return;
    progress("P14: 20 tickers with fundamentals, twice (legacy and cacheable layout), against OpenAI's caching rule…");
    await measureCacheCost(settings, rows, notes);
  });

  printTable(rows.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))));
  console.log('');
  for (const note of notes) console.log(note);
  const missed = rows.filter((row) => row.pass === false);
  console.log('');
  console.log(
    missed.length === 0
      ? 'All measured targets met.'
      : `MISSED ${missed.length} target(s): ${missed.map((row) => `${row.id} ${row.measure}`).join('; ')}`,
  );
}

// ---- P12, P13: the claims checker ------------------------------------------------------------

function claimsRows(figure: ReturnType<typeof measureClaims>, rows: Row[], notes: string[]): void {
  const { score } = figure;
  const share = (count: number, of: number) => (of === 0 ? 0 : count / of);
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  const recall = share(score.recall.caught, score.recall.of);
  const falseFlags = share(score.falseFlags.count, score.falseFlags.of);
  const derived = share(score.derived.count, score.derived.of);
  rows.push(
    {
      id: 'P12',
      measure: `claims: wrong figures caught (${score.figures} labelled figures)`,
      value: `${percent(recall)} (${score.recall.caught}/${score.recall.of})`,
      target: '≥ 95 %',
      pass: recall >= 0.95,
    },
    {
      id: 'P12',
      measure: 'claims: correct figures flagged',
      value: `${percent(falseFlags)} (${score.falseFlags.count}/${score.falseFlags.of})`,
      target: '≤ 2 %',
      pass: falseFlags <= 0.02,
    },
    {
      id: 'P12',
      measure: 'claims: derived figures marked derived',
      value: `${percent(derived)} (${score.derived.count}/${score.derived.of})`,
      target: '≥ 75 %',
      pass: derived >= 0.75,
    },
    {
      id: 'P13',
      measure: `claims: one text of ${figure.longFigures.toLocaleString('en-US')} figures`,
      value: `${milliseconds(figure.longMs)} CPU, ${milliseconds(figure.longWallMs)} wall`,
      target: '< 1 s',
      pass: figure.longMs < 1_000 && figure.longFigures >= 3_000,
    },
  );
  notes.push(
    `P12: ${score.contradicted.count}/${score.contradicted.of} wrong figures contradicted (the rest unsourced); ${score.crossedNamed.count}/${score.crossedNamed.of} crossed figures name both quantities`,
    ...score.misses
      .slice(0, 10)
      .map((miss) => `P12 miss: ${miss.label} "${miss.figure}" → ${miss.got} in "${miss.text}"`),
  );
}

// ---- P14: the prompt cache ----------------------------------------------------------------

const cacheTickers = 20;

async function measureCacheCost(settings: Settings, rows: Row[], notes: string[]): Promise<void> {
  const tickers = universeTickers(cacheTickers, 'C');
  const costs: LayoutCost[] = [];
  for (const layout of ['legacy', 'cacheable'] as const) {
    const model = await startModelServer({ latencyMs: Math.min(settings.latencyMs, 200), cacheRule: true });
    const exa = await startExaStub({ body: exaResults });
    try {
      await driver(settings, {
        mode: 'sequential',
        tickers,
        concurrency: 1,
        ...addresses(settings, model, exa),
        cacheRule: true,
        fundamentals: true,
        promptLayout: layout,
      });
      costs.push(layoutCost(layout, model.billed, tickers.length));
    } finally {
      await Promise.all([model.close(), exa.close()]);
    }
  }
  const [legacy, cacheable] = costs as [LayoutCost, LayoutCost];
  const share = cachedShare(cacheable);
  const usd = (cost: LayoutCost) => (cost.usdPerTicker === null ? 'unpriced' : `$${cost.usdPerTicker.toFixed(4)}`);
  rows.push({
    id: 'P14',
    measure: `input tokens billed as cached, ${cacheTickers} tickers with fundamentals (OpenAI's caching rule)`,
    value: `${(share * 100).toFixed(1)} %  (legacy layout ${(cachedShare(legacy) * 100).toFixed(1)} %)`,
    target: '≥ 50 %',
    pass: share >= 0.5,
  });
  rows.push({
    id: 'P14',
    measure: 'cost per ticker at the built-in prices: cacheable ÷ legacy layout',
    value: `${usd(cacheable)} / ${usd(legacy)}`,
    target: 'lower',
    pass:
      cacheable.usdPerTicker !== null && legacy.usdPerTicker !== null && cacheable.usdPerTicker < legacy.usdPerTicker,
  });
  notes.push(
    `P14: prompt tokens per ticker ${Math.round(cacheable.promptTokens / cacheTickers).toLocaleString('en-US')} (legacy ${Math.round(legacy.promptTokens / cacheTickers).toLocaleString('en-US')}); cached ${Math.round(cacheable.cachedTokens / cacheTickers).toLocaleString('en-US')} (legacy ${Math.round(legacy.cachedTokens / cacheTickers).toLocaleString('en-US')})`,
  );
}

// ---- P10: MCP runs_list over many saved runs ------------------------------------------------

async function measureRunsListFigure(home: string, rows: Row[], notes: string[]): Promise<void> {
  const figure = await measureRunsList(cliBin, home);
  const complete = figure.listed === figure.runs;
  const share = figure.perCallMs / figure.fullReadMs;
  rows.push({
    id: 'P10',
    measure: `MCP runs_list, ${figure.runs} runs, ${figure.calls} calls at once: per call ÷ reading every run`,
    value: `${ratio(share)}  (${figure.perCallMs.toFixed(2)} ms / ${milliseconds(figure.fullReadMs)}), ${figure.listed}/${figure.runs} listed`,
    target: '≤ 0.25, all listed',
    pass: share <= 0.25 && complete,
  });
  rows.push({
    id: 'P10',
    measure: `MCP runs_list, ${figure.calls} calls: server peak RSS (VmHWM)`,
    value: figure.peakRssMb === null ? 'n/a (no /proc)' : `${Math.round(figure.peakRssMb)} MB`,
    target: '≤ 250 MB',
    pass: figure.peakRssMb === null ? null : figure.peakRssMb <= 250,
  });
  notes.push(
    `P10: the first call (every run read and validated by the server) ${milliseconds(figure.firstCallMs)}; the same read in this process ${milliseconds(figure.fullReadMs)}; the server exited ${milliseconds(figure.exitMs)} after the client closed stdin`,
  );
}

// ---- P8: at the provider's rate limit ------------------------------------------------------

async function measureAtQuota(
  settings: Settings,
  rows: Row[],
  notes: string[],
  progress: (text: string) => void,
): Promise<void> {
  const quota = { tokens: settings.quotaTokens, requests: settings.quotaRequests, windowMs: settings.quotaWindowMs };
  const quotaText = `${quota.tokens.toLocaleString('en-US')} tokens and ${quota.requests} requests per ${quota.windowMs / 1000} s`;
  progress(
    `P8: a ${settings.quotaTickers}-ticker universe at concurrency ${settings.quotaConcurrency} against ${quotaText}…`,
  );
  const single = await withServers(
    settings,
    0,
    async (model, exa) => {
      const output = await driver(settings, {
        mode: 'universe',
        tickers: universeTickers(settings.quotaTickers, 'R'),
        concurrency: settings.quotaConcurrency,
        ...addresses(settings, model, exa),
      });
      const ok = output.statuses?.ok ?? 0;
      const failures = Object.entries(output.statuses ?? {})
        .filter(([status]) => status !== 'ok')
        .map(([status, count]) => `${count} × ${status}`);
      if (output.pacing) notes.push(`P8 one process, the pacer: ${output.pacing}`);
      return quotaFigure(model, quota, { tickers: settings.quotaTickers, ok, failures, wallMs: output.wallMs });
    },
    quota,
  );
  pushQuotaRows(rows, `${settings.quotaTickers} tickers @ ${settings.quotaConcurrency}, 1 process`, single);
  notes.push(`P8 (quota ${quotaText}), one process: ${describeQuotaFigure(single)}`);

  progress(
    `P8: ${settings.quotaWorkerTickers} tickers on 2 worker processes sharing one Redis, against the same quota…`,
  );
  const shared = await withServers(
    settings,
    0,
    async (model, exa) => {
      const run = await measureSharedQuota(
        addresses(settings, model, exa),
        settings.quotaWorkerTickers,
        Math.max(1, Math.round(settings.quotaConcurrency / 2)),
      );
      return run ? quotaFigure(model, quota, run) : null;
    },
    quota,
  );
  if (!shared) {
    rows.push({
      id: 'P8',
      measure: '2 workers on one Redis',
      value: 'n/a (redis-server not installed)',
      target: '',
      pass: null,
    });
    return;
  }
  pushQuotaRows(rows, `${settings.quotaWorkerTickers} tickers, 2 workers on one Redis`, shared);
  notes.push(`P8 two workers: ${describeQuotaFigure(shared)}`);
  for (const failure of [...single.failures, ...shared.failures].slice(0, 5)) notes.push(`MISSED: P8 ${failure}`);
}

function pushQuotaRows(rows: Row[], label: string, figure: QuotaFigure): void {
  const ratioValue = achievedRatio(figure);
  const share = refusedShare(figure);
  rows.push({
    id: 'P8',
    measure: `${label}: tokens admitted ÷ quota`,
    value: `${ratio(ratioValue)}  (${Math.round(figure.admittedTokens).toLocaleString('en-US')} / ${Math.round(figure.possibleTokens).toLocaleString('en-US')})`,
    target: '≥ 0.9',
    pass: ratioValue >= 0.9,
  });
  rows.push({
    id: 'P8',
    measure: `${label}: requests answered 429`,
    value: `${(share * 100).toFixed(1)} %  (${figure.refused} of ${figure.requests})`,
    target: '≤ 2 %',
    pass: share <= 0.02,
  });
  rows.push({
    id: 'P8',
    measure: `${label}: failed tickers`,
    value: `${figure.tickers - figure.ok} of ${figure.tickers}`,
    target: '0',
    pass: figure.ok === figure.tickers,
  });
}

main().catch((error: unknown) => {
  // A report, not a gate: say what broke and still exit 0.
  console.error(`bench: could not finish: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
});
