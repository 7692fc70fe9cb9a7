import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { MarketSnapshot } from '../../src/market/types.js';
import { captureIo } from '../support/cli.js';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('one style for errors', () => {
  it('an unknown flag is one UsageError line with the suggestion, exit 2', async () => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', '--jsn'], io)).toBe(2);
    expect(io.err()).toBe("autohedge: unknown option '--jsn' (did you mean --json?)\n");
    expect(io.out()).toBe('');
  });

  it('a missing argument and an unknown command read the same way', async () => {
    const missing = captureIo();
    expect(await runCli(['analyze'], missing)).toBe(2);
    expect(missing.err()).toBe("autohedge: missing required argument 'tickers'\n");
    const unknown = captureIo();
    expect(await runCli(['analyz', 'ACME'], unknown)).toBe(2);
    expect(unknown.err()).toBe("autohedge: unknown command 'analyz' (did you mean analyze?)\n");
  });

  it("'analyse', the help's own spelling, is analyze (issue 44 item 34)", async () => {
    const io = captureIo();
    expect(await runCli(['analyse', 'ACME', '--demo', '--no-save', '--quiet', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out()) as { ticker: string }).ticker).toBe('ACME');
  });

  it('replay misses are listed once each, with the prefix every cassette error has', async () => {
    const io = captureIo({ env: { ...captureIo().env, AUTOHEDGE_MODEL: 'gpt-4o' } });
    expect(await runCli(['analyze', 'ACME', '--demo', '--no-save', '--quiet'], io)).toBe(2);
    const lines = io.err().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines).size).toBe(lines.length);
    for (const line of lines)
      expect(line).toMatch(
        /^autohedge: no recorded response for POST https:\/\/api\.openai\.com\/v1\/chat\/completions \(agent: \w+\) in cassette '/,
      );
  });

  it('a clone that was never built says so in one line, not a module-not-found stack', () => {
    const clone = mkdtempSync(join(tmpdir(), 'autohedge-unbuilt-'));
    cpSync(join(repoRoot, 'bin'), join(clone, 'bin'), { recursive: true });
    const run = spawnSync(process.execPath, [join(clone, 'bin', 'autohedge.js'), '--help'], { encoding: 'utf8' });
    expect(run.stderr).toBe('autohedge is not built: run npm run build\n');
    expect(run.status).toBe(1);
  });
});

describe('autohedge market --demo', () => {
  it('prints the demo market block labelled DEMO, and the JSON says source "demo"', async () => {
    const text = captureIo();
    expect(await runCli(['market', 'ACME', '--demo'], text)).toBe(0);
    expect(
      text
        .out()
        .startsWith(
          'DEMO - synthetic data, scripted analyses; not investment advice\n\nMARKET DATA — ACME (Acme Robotics Corp)',
        ),
    ).toBe(true);
    const json = captureIo();
    expect(await runCli(['market', 'ACME', '--demo', '--json'], json)).toBe(0);
    expect((JSON.parse(json.out()) as MarketSnapshot).source).toBe('demo');
  });

  it('a ticker the demo does not cover, or --demo with --replay, is a usage error', async () => {
    const other = captureIo();
    expect(await runCli(['market', 'NVDA', '--demo'], other)).toBe(2);
    expect(other.err()).toMatch(/^autohedge: the demo covers ACME only/);
    // market needs no key: the hint is the market command, and dropping --demo.
    expect(other.err()).toContain(
      'run `autohedge market ACME --demo`, or drop --demo for the real market data of NVDA',
    );
    expect(other.err()).not.toContain('OPENAI_API_KEY');
    const both = captureIo();
    expect(await runCli(['market', 'ACME', '--demo', '--replay', 'x.json'], both)).toBe(2);
    expect(both.err()).toBe('autohedge: --record, --replay and --demo cannot be combined\n');
  });
});
