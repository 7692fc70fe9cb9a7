#!/usr/bin/env node
// Regenerates the synthetic cassettes: demo/demo.cassette.json (ACME, shipped for
// `autohedge analyze ACME --demo`) and tests/fixtures/smoke/acme-glbx.cassette.json
// (ACME and GLBX in one run, for the smoke tests). Run it when prompts, agents,
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
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { companies, demoAsOf, demoNote } from './companies.mjs';
import { createChatHandler, createSearchHandler } from './desks.mjs';
import { createYahooHandler, yahooHosts } from './market.mjs';
import { installSyntheticNetwork } from './network.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const cassettes = {
  demo: { tickers: ['ACME'], file: 'demo/demo.cassette.json' },
  smoke: { tickers: ['ACME', 'GLBX'], file: 'tests/fixtures/smoke/acme-glbx.cassette.json' },
};

/** Loud enough for the recorder to scrub; the values are made up and reach no service. */
const generatorKeys = { OPENAI_API_KEY: 'sk-demo-generator-not-a-real-key', EXA_API_KEY: 'demo-generator-exa-key-not-real' };
const yahooSession = { cookie: 'd=AQABBDemoSyntheticSessionCookie&S=AQAAAdemo', crumb: 'dEm0CrUmB.x9' };

/** What each recorded run must look like; anything else means the script and the product drifted. */
const expectedGuardrails = { ACME: [], GLBX: ['hold-levels'] };

async function recordOne(name) {
  const spec = cassettes[name];
  if (!spec) throw new Error(`unknown cassette '${name}' (have ${Object.keys(cassettes).join(', ')})`);
  const target = path.join(root, spec.file);
  const scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-demo-'));
  const recorded = path.join(scratch, 'recorded.cassette.json');

  // The SDKs would otherwise pick these up from the process and record other URLs.
  for (const variable of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'EXA_API_KEY', 'EXA_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID']) delete process.env[variable];

  const network = installSyntheticNetwork([
    { hosts: yahooHosts, handle: createYahooHandler(yahooSession) },
    { hosts: ['api.openai.com'], handle: createChatHandler() },
    { hosts: ['api.exa.ai'], handle: createSearchHandler(companies) },
  ]);
  let stdout = '';
  let stderr = '';
  try {
    const { runCli } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'cli', 'run-cli.js')).href);
    const io = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: { AUTOHEDGE_HOME: path.join(scratch, 'home'), NO_COLOR: '1', ...generatorKeys },
      cwd: scratch,
      stderrIsTTY: false,
      stdoutIsTTY: false,
      columns: 0,
    };
    const code = await runCli(['analyze', ...spec.tickers, '--record', recorded, '--json', '--no-save', '--quiet'], io, { now: () => new Date(demoAsOf) });
    if (code !== 0) throw new Error(`the recording run exited ${code}:\n${stderr}`);
  } finally {
    network.restore();
  }

  const parsed = JSON.parse(stdout);
  const results = Array.isArray(parsed) ? parsed : [parsed];
  for (const result of results) {
    const problems = [];
    if (result.status !== 'ok') problems.push(`status ${result.status}`);
    if (result.warnings.length > 0) problems.push(`warnings: ${result.warnings.join('; ')}`);
    const rules = result.guardrails.map((finding) => finding.rule);
    if (JSON.stringify(rules) !== JSON.stringify(expectedGuardrails[result.ticker])) problems.push(`guardrails: ${rules.join(', ') || 'none'}`);
    if (problems.length > 0) throw new Error(`the recorded ${result.ticker} analysis is not the demo it should be: ${problems.join(' | ')}`);
  }

  const { readCassette, writeCassette } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'record', 'cassette.js')).href);
  const cassette = await readCassette(recorded);
  await writeCassette(target, { ...cassette, recordedAt: cassette.asOf, demo: true, note: demoNote });
  rmSync(scratch, { recursive: true, force: true });

  const text = readFileSync(target, 'utf8');
  for (const secret of [...Object.values(generatorKeys), yahooSession.cookie, yahooSession.crumb]) {
    if (text.includes(secret)) throw new Error(`${spec.file} holds a generator secret; the recorder's scrubbing regressed`);
  }
  const summary = results.map((result) => `${result.ticker} ${result.decision.action} ${result.decision.conviction}`).join(', ');
  console.log(`${spec.file}: ${cassette.interactions.length} exchanges, ${(statSync(target).size / 1024).toFixed(0)} KiB (${summary})`);
}

function recordAll() {
  const build = path.join(root, 'dist', 'src', 'cli', 'run-cli.js');
  try {
    statSync(build);
  } catch {
    throw new Error('dist/ is missing: run `npm run build` first (npm run demo:generate does)');
  }
  for (const name of Object.keys(cassettes)) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--record', name], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`recording '${name}' failed (exit ${child.status})`);
  }
}

try {
  if (process.argv[2] === '--record') await recordOne(process.argv[3]);
  else recordAll();
} catch (error) {
  console.error(`scripts/demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
