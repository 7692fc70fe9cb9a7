/**
 * Record → replay through the BUILT CLI, each in its own child process:
 *
 * 1. record `analyze ACME --record` against live stand-ins on loopback — a scripted
 *    OpenAI-compatible server that really streams SSE, an Exa stub, and Yahoo's real
 *    hosts answered by the synthetic market (a test-only `--import` preload wraps
 *    fetch; the product has no hook for it) — with canary keys in the environment;
 * 2. stop every server;
 * 3. replay the cassette in a fresh process with no keys and no base URLs.
 *
 * The two AnalysisResults must be equal apart from the run's identity and timings,
 * and nothing the recording wrote may hold a canary or anything shaped like a secret.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { analysisResultSchema } from '../smoke/analysis-result.js';
import { findSecrets } from '../smoke/secrets.js';
import { repoRoot, runBuilt } from '../smoke/support.js';
import { textAnswer, toolCallAnswer, type ReplyHandler } from '../support/openai-server.js';
import { comparable, recordAnalyze, useScratch } from './support.js';
import { deskIds } from '../../agents/index.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

const canaries = {
  openai: `sk-canary-${randomBytes(16).toString('hex')}`,
  exa: `exa-canary-${randomUUID()}`,
  yahooCookie: `d=AQABBcanary${randomBytes(8).toString('hex')}&S=AQAAAcanary`,
  yahooCrumb: `cRuMb${randomBytes(4).toString('hex')}`,
};

const plan = planFor(deskIds, { thesis: 'Round-trip thesis: ACME trends up from its autumn low.' });
const decision = decisionFixture({
  conviction: 60,
  positionSizePct: 3,
  entry: 140,
  stopLoss: 132,
  takeProfit: 156,
  rationale: 'Round trip: trend up, risk contained.',
  keyRisks: ['volatility', 'margins'],
});
const searchResponse = {
  requestId: 'round-trip',
  resolvedSearchType: 'neural',
  results: [
    {
      id: 'https://news.example.com/round-trip',
      url: 'https://news.example.com/round-trip',
      title: 'Acme Robotics wins an order (round-trip fixture)',
      publishedDate: '2026-11-20T10:00:00.000Z',
      author: null,
      highlights: ['A fictional order for a fictional company.'],
    },
  ],
};

const inScratch = useScratch('autohedge-round-trip-');

const answer: ReplyHandler = (body, _index, request) => {
  const agent = request.headers['x-autohedge-agent'];
  const streamed = { chunkDelayMs: 2, usage: { prompt_tokens: 600, completion_tokens: 45, cached_tokens: 128 } };
  if (agent === 'director')
    return textAnswer(JSON.stringify(body.response_format?.json_schema?.name === 'plan' ? plan : decision), streamed);
  if (agent === 'sentiment' && !body.messages.some((message: { role: string }) => message.role === 'tool')) {
    return toolCallAnswer(
      [
        {
          id: 'call_round_trip',
          name: 'exa_search',
          arguments: { query: 'Acme Robotics news', numResults: 3, daysBack: 30 },
        },
      ],
      streamed,
    );
  }
  return textAnswer(`${agent} report for the round trip; source https://news.example.com/round-trip`, streamed);
};

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

it('a run recorded against loopback services replays, with those services stopped, into the same AnalysisResult — and writes no secret', async () => {
  const recordingHome = inScratch('recording-home');
  // Every server is stopped once the recording ends, before the replay.
  const {
    run: recording,
    cassette,
    openai,
    exa,
  } = await recordAnalyze({
    cassette: inScratch('acme.cassette.json'),
    openai: answer,
    exa: { body: searchResponse },
    keys: canaries,
    home: recordingHome,
  });
  expect(recording.stderr).toContain(`autohedge: recorded the run's HTTP exchanges to ${cassette}\n`);
  expect(recording.code, recording.stderr).toBe(0);
  const recorded = analysisResultSchema.parse(JSON.parse(recording.stdout));
  expect(recorded).toMatchObject({ ticker: 'ACME', status: 'ok', demo: false, warnings: [], decision });
  // The fixture's quote and bars are from a fixed past day while the run's clock is today: the only findings say so.
  expect(recorded.guardrails.map((finding) => finding.rule)).toEqual(['stale-quote', 'stale-bars']);
  expect(recorded.market?.identity.name).toBe('Acme Robotics Corp');
  expect(recorded.reports[3]?.toolCalls[0]?.result).toContain('Acme Robotics wins an order (round-trip fixture)');

  // The canaries really went out, so they were really at risk of being written.
  expect(openai.requests).toHaveLength(7);
  expect(new Set(openai.requests.map((request) => request.headers.authorization))).toEqual(
    new Set([`Bearer ${canaries.openai}`]),
  );
  expect(exa.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${canaries.exa}`]);
  const recordedCassette = JSON.parse(readFileSync(cassette, 'utf8')) as {
    argv: string[];
    asOf: string;
    autohedgeVersion: string;
    interactions: Array<{ url: string }>;
  };
  // The cassette names the run it holds: the whole command line, its clock, the version.
  expect(recordedCassette.argv).toEqual(['analyze', 'ACME', '--record', cassette, '--json']);
  expect(recordedCassette.asOf).toBe(recorded.asOf);
  expect(recordedCassette.autohedgeVersion).toBe(
    (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version,
  );
  const hosts = new Set(recordedCassette.interactions.map((item) => new URL(item.url).host));
  expect(hosts).toEqual(
    new Set([
      'finance.yahoo.com',
      'query1.finance.yahoo.com',
      'query2.finance.yahoo.com',
      new URL(openai.url).host,
      new URL(exa.baseURL).host,
    ]),
  );

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', cassette, '--json']);
  expect(replaying.stderr.includes('autohedge:'), replaying.stderr).toBe(false);
  expect(replaying.code).toBe(0);
  const replayed = analysisResultSchema.parse(JSON.parse(replaying.stdout));
  expect(replayed.runId).not.toBe(recorded.runId);
  expect(comparable(replayed)).toEqual(comparable(recorded));

  // Hygiene: the cassette, the saved run (result.json, report.md, report.html, chart.svg, transcript.jsonl) and the output.
  const runFiles = filesUnder(path.join(recordingHome, 'runs'));
  expect(runFiles.map((file) => path.basename(file)).sort()).toEqual([
    'chart.svg',
    'report.html',
    'report.md',
    'result.json',
    'transcript.jsonl',
  ]);
  const written = [cassette, ...runFiles].map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  written.push({ file: 'stdout', text: recording.stdout }, { file: 'stderr', text: recording.stderr });
  const leaks = written.flatMap(({ file, text }) =>
    findSecrets(text, Object.values(canaries)).map((finding) => `${path.basename(file)}: ${finding}`),
  );
  expect(leaks).toEqual([]);
}, 60_000);

it('the secret scan finds what it is meant to find', () => {
  const text = `{"authorization":"Bearer ${canaries.openai}","cookie":"A3=${canaries.yahooCookie}","url":"https://q/v7?crumb=${canaries.yahooCrumb}"}`;
  expect(findSecrets(text, [canaries.exa]).length).toBe(5);
  expect(findSecrets(`x ${encodeURIComponent(canaries.exa)} y`, [canaries.exa])).toEqual([
    `the canary ${canaries.exa.slice(0, 6)}…`,
  ]);
  expect(
    findSecrets(
      '{"authorization":"REDACTED","cookie":"A3=REDACTED","url":"https://q/v7?crumb=REDACTED","note":"Bearer REDACTED"}',
      [canaries.exa],
    ),
  ).toEqual([]);
});
