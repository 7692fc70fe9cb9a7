#!/usr/bin/env node
// Regenerates the synthetic cassettes: demo/demo.cassette.json (ACME, shipped for
// `autohedge analyze ACME --demo`), demo/evaluation.cassette.json (the prices after the
// demo day, shipped for `autohedge evaluate --demo`) and
// tests/fixtures/smoke/acme-glbx.cassette.json (ACME and GLBX in one run, for the smoke tests). Run it when prompts, agents,
// schemas or the market block change:  npm run demo:generate  (builds first).
//
// Each cassette is recorded by the BUILT CLI's own `--record` path, in-process, with
// globalThis.fetch answering Yahoo, OpenAI and Exa from scripts/demo (see
// network.mjs), so the file is exactly what autohedge writes. Only the meta is then
// completed (demo: true, the note, recordedAt pinned to asOf so that regenerating
// with nothing changed leaves no diff). One recording per child process: exa-js
// keeps the fetch it saw first, so a second recording in one process would bypass
// the recorder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { companies, demoAsOf, demoEvaluationAsOf, demoNote } from './companies.mjs';
import { createChatHandler, createSearchHandler } from './desks.mjs';
import { createYahooHandler, yahooHosts } from './market.mjs';
import { installSyntheticNetwork } from './network.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Each cassette: the runs recorded into it (one child process each), merged. The demo
 * also holds every desk run alone, so `--demo --agent quant` replays too, and a probe
 * (its named run without search and its blind run), so `probe ACME --demo` replays.
 */
const cassettes = {
  demo: { tickers: ['ACME'], file: 'demo/demo.cassette.json', runs: [[], ['--agent', 'quant', '--agent', 'risk', '--agent', 'execution'], 'probe'] },
  smoke: { tickers: ['ACME', 'GLBX'], file: 'tests/fixtures/smoke/acme-glbx.cassette.json', runs: [[]] },
  // `evaluate` of a saved `analyze ACME --demo` run at the evaluation clock (recordEvaluation).
  evaluation: { tickers: ['ACME'], file: 'demo/evaluation.cassette.json', runs: [[]], argv: ['evaluate', '--demo'] },
};

/** Loud enough for the recorder to scrub; the values are made up and reach no service. */
const generatorKeys = { OPENAI_API_KEY: 'sk-demo-generator-not-a-real-key', EXA_API_KEY: 'demo-generator-exa-key-not-real' };
const yahooSession = { cookie: 'd=AQABBDemoSyntheticSessionCookie&S=AQAAAdemo', crumb: 'dEm0CrUmB.x9' };

/** What each recorded run must look like; anything else means the script and the product drifted. */
const expectedGuardrails = { ACME: [], GLBX: ['hold-levels'] };

/** The built CLI's runCli in this process (so the synthetic network answers it), at a fixed clock; its stdout. */
async function runCliInProcess(args, env, cwd, clock) {
  const { runCli } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'cli', 'run-cli.js')).href);
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { NO_COLOR: '1', ...env },
    cwd,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    columns: 0,
  };
  // The recorded market data is made up: the agents read it labelled as synthetic demo data.
  const code = await runCli(args, io, { now: () => new Date(clock), syntheticMarket: true });
  if (code !== 0) throw new Error(`autohedge ${args[0]} (recording) exited ${code}:\n${stderr}`);
  return stdout;
}

async function recordOne(name, runIndex, recorded) {
  if (name === 'evaluation') return recordEvaluation(recorded);
  const spec = cassettes[name];
  if (!spec) throw new Error(`unknown cassette '${name}' (have ${Object.keys(cassettes).join(', ')})`);
  const options = spec.runs[runIndex];
  if (!options) throw new Error(`cassette '${name}' has no run ${runIndex}`);
  if (options === 'probe') return recordProbe(spec.tickers[0], recorded);
  const scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-demo-'));

  // The SDKs would otherwise pick these up from the process and record other URLs.
  const network = installDemoNetwork();
  let stdout;
  try {
    const args = ['analyze', ...spec.tickers, ...options, '--record', recorded, '--json', '--no-save', '--quiet'];
    // The shipped demo shows synthetic fundamentals (src/market/fundamentals-demo.ts); the smoke cassette does not.
    const demoFundamentals = name === 'demo' ? { AUTOHEDGE_DEMO_RECORDING: '1' } : {};
    stdout = await runCliInProcess(args, { AUTOHEDGE_HOME: path.join(scratch, 'home'), ...generatorKeys, ...demoFundamentals }, scratch, demoAsOf);
  } finally {
    network.restore();
  }

  const parsed = JSON.parse(stdout);
  const results = Array.isArray(parsed) ? parsed : [parsed];
  for (const result of results) checkRecorded(result);

  rmSync(scratch, { recursive: true, force: true });
  const summary = results.map((result) => (result.decision ? `${result.ticker} ${result.decision.action} ${result.decision.conviction}` : `${result.ticker} ${result.reports.map((report) => report.agent).join('+')}`));
  console.log(`  run ${runIndex + 1}: ${summary.join(', ')}`);
}

/** The synthetic Yahoo, OpenAI and Exa; `blindCompany` is the company a blind run's alias stands for. */
function installDemoNetwork(blindCompany = null) {
  // The SDKs would otherwise pick these up from the process and record other URLs.
  for (const variable of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'EXA_API_KEY', 'EXA_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID']) delete process.env[variable];
  return installSyntheticNetwork([
    { hosts: yahooHosts, handle: createYahooHandler(yahooSession) },
    { hosts: ['api.openai.com'], handle: createChatHandler({ blindCompany }) },
    { hosts: ['api.exa.ai'], handle: createSearchHandler(companies) },
  ]);
}

/** Warnings a run without search is meant to carry (src/pipeline/search-setup.ts, blind-run.ts): said, not a drift. */
const searchOffWarning = /^sentiment: (no web search in this run|blind run — web search is off)/;

/** A recorded analysis must be the demo it should be: ok, no other warnings, the expected guardrails, no contradicted figure. */
function checkRecorded(result) {
  const problems = [];
  if (result.status !== 'ok') problems.push(`status ${result.status}`);
  const warnings = result.warnings.filter((warning) => !searchOffWarning.test(warning));
  if (warnings.length > 0) problems.push(`warnings: ${warnings.join('; ')}`);
  const rules = result.guardrails.map((finding) => finding.rule);
  const expectedRules = result.mode === 'full' ? expectedGuardrails[result.ticker] : [];
  if (JSON.stringify(rules) !== JSON.stringify(expectedRules)) problems.push(`guardrails: ${rules.join(', ') || 'none'}`);
  // Every figure of the scripted prose must match the synthetic data (docs/claims.md).
  const contradicted = (result.claims ?? []).filter((claim) => claim.status === 'contradicted');
  if (contradicted.length > 0) problems.push(`contradicted figures: ${contradicted.map((claim) => `${claim.agent} ${claim.text} (the data: ${claim.sourceText})`).join(', ')}`);
  if (problems.length > 0) throw new Error(`the recorded ${result.ticker}${result.blind ? ' blind' : ''} analysis is not the demo it should be: ${problems.join(' | ')}`);
}

/**
 * `autohedge probe <ticker>` recorded: its named run (no search) and its blind run (the
 * alias "Company A", prices scaled to 100), both saved in a scratch home so each result
 * is checked like any recorded analysis; the comparison must find the same call.
 */
async function recordProbe(ticker, recorded) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-demo-probe-'));
  const home = path.join(scratch, 'home');
  const network = installDemoNetwork(companies[ticker]);
  let stdout;
  try {
    const args = ['probe', ticker, '--record', recorded, '--json', '--quiet'];
    stdout = await runCliInProcess(args, { AUTOHEDGE_HOME: home, ...generatorKeys, AUTOHEDGE_DEMO_RECORDING: '1' }, scratch, demoAsOf);
  } finally {
    network.restore();
  }
  const comparison = JSON.parse(stdout);
  const runsDir = path.join(home, 'runs');
  for (const run of readdirSync(runsDir)) checkRecorded(JSON.parse(readFileSync(path.join(runsDir, run, 'result.json'), 'utf8')));
  if (comparison.verdict !== 'consistent') throw new Error(`the recorded probe of ${ticker} is not consistent: ${stdout}`);
  rmSync(scratch, { recursive: true, force: true });
  const side = (run) => `${run.action} ${run.conviction}`;
  console.log(`  probe: ${ticker} named ${side(comparison.named)}, blind ${side(comparison.blind)}, ${comparison.verdict}`);
}

/** The CLI in a child process: the demo analysis replays its own cassette, outside this recording. */
function runBuiltCli(args, env) {
  const child = spawnSync(process.execPath, [path.join(root, 'bin', 'autohedge.js'), ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`autohedge ${args.join(' ')} exited ${child.status}:\n${child.stderr}`);
  return child.stdout;
}

/**
 * The demo evaluation: a saved `analyze ACME --demo` run (the shipped cassette, in a child),
 * then `evaluate --include-demo` recorded at the evaluation clock, with Yahoo answering the
 * invented prices after the demo day and the synthetic benchmark.
 */
async function recordEvaluation(recorded) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-demo-evaluation-'));
  const home = path.join(scratch, 'home');
  runBuiltCli(['analyze', 'ACME', '--demo', '--quiet'], { AUTOHEDGE_HOME: home });
  const network = installSyntheticNetwork([{ hosts: yahooHosts, handle: createYahooHandler({ ...yahooSession, through: demoEvaluationAsOf.slice(0, 10) }) }]);
  let stdout;
  try {
    const args = ['evaluate', '--include-demo', '--record', recorded, '--json', '--no-save', '--quiet'];
    stdout = await runCliInProcess(args, { AUTOHEDGE_HOME: home }, scratch, demoEvaluationAsOf);
  } finally {
    network.restore();
  }
  const evaluation = JSON.parse(stdout);
  const unscored = evaluation.decisions.filter((row) => row.problem !== null);
  if (evaluation.decisions.length === 0 || unscored.length > 0 || evaluation.warnings.length > 0)
    throw new Error(`the recorded demo evaluation is not the one it should be: ${JSON.stringify({ decisions: evaluation.decisions.length, unscored, warnings: evaluation.warnings })}`);
  rmSync(scratch, { recursive: true, force: true });
  console.log(`  evaluation: ${evaluation.decisions.length} decision(s) scored`);
}

/**
 * One cassette from its runs' recordings. An exchange several runs made alike (the
 * market data) is kept once; replay answers each run's requests from the whole set.
 */
async function merge(name, recordings) {
  const spec = cassettes[name];
  const target = path.join(root, spec.file);
  const { readCassette, writeCassette } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'record', 'cassette.js')).href);
  const parts = [];
  for (const file of recordings) parts.push(await readCassette(file));
  const [first] = parts;
  const seen = new Set();
  const interactions = parts.flatMap((part) => part.interactions).filter((interaction) => {
    const key = JSON.stringify([interaction.method, interaction.url, interaction.requestBody ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const cassette = { ...first, argv: spec.argv ?? ['analyze', ...spec.tickers], interactions };
  await writeCassette(target, { ...cassette, recordedAt: cassette.asOf, demo: true, note: demoNote });

  const text = readFileSync(target, 'utf8');
  for (const secret of [...Object.values(generatorKeys), yahooSession.cookie, yahooSession.crumb]) {
    if (text.includes(secret)) throw new Error(`${spec.file} holds a generator secret; the recorder's scrubbing regressed`);
  }
  console.log(`${spec.file}: ${cassette.interactions.length} exchanges, ${(statSync(target).size / 1024).toFixed(0)} KiB`);
}

async function recordAll() {
  const build = path.join(root, 'dist', 'src', 'cli', 'run-cli.js');
  try {
    statSync(build);
  } catch {
    throw new Error('dist/ is missing: run `npm run build` first (npm run demo:generate does)');
  }
  for (const [name, spec] of Object.entries(cassettes)) {
    const scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-demo-runs-'));
    const recordings = spec.runs.map((_, index) => path.join(scratch, `run-${index}.cassette.json`));
    recordings.forEach((file, index) => {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--record', name, String(index), file], { stdio: 'inherit' });
      if (child.status !== 0) throw new Error(`recording '${name}' run ${index + 1} failed (exit ${child.status})`);
    });
    await merge(name, recordings);
    rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  if (process.argv[2] === '--record') await recordOne(process.argv[3], Number(process.argv[4]), process.argv[5]);
  else await recordAll();
} catch (error) {
  console.error(`scripts/demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
