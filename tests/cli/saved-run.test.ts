import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrlHost } from '../../src/run/run-record.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('a saved run explains itself and says where it went', () => {
  it('prints `saved <dir>` on stderr; the directory holds result.json, report.md, report.html and chart.svg', async () => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', '--demo'], io)).toBe(0);
    const line = io
      .err()
      .split('\n')
      .find((text) => text.startsWith('saved '));
    expect(line).toBeDefined();
    const dir = line!.slice('saved '.length);
    expect(dir.startsWith(join(io.env.AUTOHEDGE_HOME!, 'runs'))).toBe(true);
    for (const name of ['result.json', 'report.md', 'report.html', 'chart.svg', 'transcript.jsonl'])
      expect(existsSync(join(dir, name)), name).toBe(true);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(
      `**Run settings.** autohedge ${version} · models: director gpt-4.1, quant gpt-4.1`,
    );
    // The id the footer names is one `runs show` finds.
    const runId = /Run (\S+)/.exec(io.out())![1]!;
    const show = captureIo({ env: io.env });
    expect(await runCli(['runs', 'show', runId, '--json'], show)).toBe(0);
    expect((JSON.parse(show.out()) as AnalysisResult).runId).toBe(runId);
  });

  // Desk-only runs here: a second full demo in one process misses its Exa replay (exa-js keeps the
  // fetch it found when first imported), which is the search layer's to fix, not this test's.
  it('--quiet prints no `saved` line; --no-save names no run id', async () => {
    const quiet = captureIo();
    expect(await runCli(['analyze', 'ACME', '--demo', '--agent', 'quant', '--quiet'], quiet), quiet.err()).toBe(0);
    expect(quiet.err()).toBe('');
    const unsaved = captureIo();
    expect(await runCli(['analyze', 'ACME', '--demo', '--agent', 'quant', '--no-save'], unsaved), unsaved.err()).toBe(
      0,
    );
    expect(unsaved.err()).not.toContain('saved ');
    expect(unsaved.out()).toContain('Run not saved (--no-save)');
    expect(unsaved.out()).not.toMatch(/\d{8}T\d{6}Z-ACME-/);
  });

  it('result.json records the autohedge version and the options that shaped the run', async () => {
    const io = captureIo({ env: { ...captureIo().env, AUTOHEDGE_MODEL_RISK: 'gpt-4o' } });
    expect(
      await runCli(
        [
          'analyze',
          'ACME',
          '--demo',
          '--agent',
          'quant',
          '--max-position',
          '7.5',
          '--max-cost',
          '5',
          '--json',
          '--quiet',
        ],
        io,
      ),
    ).toBe(0);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.autohedgeVersion).toBe(version);
    expect(result.options).toEqual({
      models: { quant: 'gpt-4.1' },
      baseUrlHost: 'api.openai.com',
      limits: { maxPositionPct: 7.5, maxRiskPct: expect.any(Number), minRewardRisk: expect.any(Number) },
      maxCostUsd: 5,
      search: 'exa',
      agents: ['quant'],
      version: 1,
      asOf: { kind: 'live' },
    });
  });

  it('the base URL is kept by host only: no credentials, path or query', () => {
    expect(baseUrlHost('https://user:secret@llm.example.com:8443/v1?key=sk-abc')).toBe('llm.example.com:8443');
    expect(baseUrlHost(undefined)).toBe('api.openai.com');
  });
});
