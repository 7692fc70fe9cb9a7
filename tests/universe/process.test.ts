import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/result/types.js';
import { binPath, ensureBuilt } from '../smoke/support.js';
import { startAnalysisServer } from '../queue/support/analysis-server.js';
import { eventually } from '../queue/support/queue.js';

const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'queue', 'support', 'any-symbol-yahoo.preload.mjs'),
).href;

/** The built CLI in its own process against the loopback model server, Yahoo answered by the preload. */
function analyzeProcess(args: string[], home: string, modelUrl: string) {
  const child = spawn(process.execPath, ['--import', preload, binPath, 'analyze', ...args, '--base-url', modelUrl], {
    cwd: home,
    env: { PATH: process.env.PATH, AUTOHEDGE_HOME: home, OPENAI_API_KEY: 'sk-universe-test-key-0000', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}

const saved = (home: string) =>
  readdirSync(path.join(home, 'runs')).map(
    (name) => JSON.parse(readFileSync(path.join(home, 'runs', name, 'result.json'), 'utf8')) as AnalysisResult,
  );

describe('a universe in its own process: Ctrl-C, then --resume', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it('Ctrl-C keeps what finished (streamed and saved); --resume analyses only the rest', async () => {
    const tickers = Array.from({ length: 8 }, (_, index) => `CTRL${index + 1}`);
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-universe-home-'));
    writeFileSync(path.join(home, 'universe.txt'), `# eight names\n${tickers.join('\n')}\n`);
    // From the fourth ticker on, the desks answer slowly: the Ctrl-C lands while they run.
    const slow = new Set(tickers.slice(3));
    const server = await startAnalysisServer(({ ticker, agent }) =>
      slow.has(ticker) && agent === 'quant' ? { answer: { text: 'slow.' }, delayMs: 5_000 } : undefined,
    );
    try {
      const first = analyzeProcess(
        ['--universe', 'universe.txt', '--jsonl', '--concurrency', '1', '--quiet'],
        home,
        server.url,
      );
      await eventually(
        'three results and the fourth ticker under way',
        () => first.stdout().trimEnd().split('\n').filter(Boolean).length === 3 && server.plansFor('CTRL4') === 1,
      );
      first.child.kill('SIGINT');
      expect(await first.exit).toBe(130);
      const streamed = first
        .stdout()
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as AnalysisResult).ticker);
      expect(streamed).toEqual(['CTRL1', 'CTRL2', 'CTRL3', 'CTRL4']);
      expect(
        saved(home)
          .map((result) => [result.ticker, result.status])
          .sort(),
      ).toEqual([
        ['CTRL1', 'ok'],
        ['CTRL2', 'ok'],
        ['CTRL3', 'ok'],
        ['CTRL4', 'interrupted'],
      ]);

      slow.clear();
      const resumed = analyzeProcess(
        ['--universe', 'universe.txt', '--jsonl', '--resume', '--concurrency', '4'],
        home,
        server.url,
      );
      expect(await resumed.exit, resumed.stderr()).toBe(0);
      expect(
        resumed
          .stdout()
          .trimEnd()
          .split('\n')
          .map((line) => (JSON.parse(line) as AnalysisResult).ticker)
          .sort(),
      ).toEqual(tickers.slice(3));
      expect(resumed.stderr()).toContain('autohedge: --resume: 3 of 8 tickers already have a finished run for');
      expect(resumed.stderr()).toContain('Universe: 5 analysed — 5 ok, 3 skipped (finished earlier: --resume)');
      for (const ticker of tickers.slice(0, 3)) expect(server.plansFor(ticker)).toBe(1);
      expect(server.plansFor('CTRL4')).toBe(2);
    } finally {
      await server.close();
    }
  }, 60_000);
});
