import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

describe('autohedge agents', () => {
  it('a header and one row per agent: id, name, model, tools, description', async () => {
    const io = captureIo();
    expect(await runCli(['agents'], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +NAME +MODEL +TOOLS +DESCRIPTION$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 2))).toEqual([
      ['director', 'Director'],
      ['quant', 'Quant'],
      ['risk', 'Risk'],
      ['execution', 'Execution'],
      ['sentiment', 'Sentiment'],
    ]);
    expect(lines[5]).toMatch(/^sentiment +Sentiment +gpt-4o-mini +exa_search +Searches recent news/);
  });

  it('--model shows the override; on a terminal no row is wider than it', async () => {
    const io = captureIo({ stdoutIsTTY: true, columns: 70 });
    expect(await runCli(['agents', '--model', 'llama3.1:8b'], io)).toBe(0);
    for (const line of io.out().trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(70);
    expect(io.out()).toMatch(/\nquant +Quant +llama3\.1:8b /);
  });
});

describe('autohedge tools', () => {
  it('a readable table: name, the agents that have it, parameters (optional marked), one line of description', async () => {
    const io = captureIo();
    expect(await runCli(['tools'], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +AGENTS +PARAMETERS +DESCRIPTION$/);
    expect(lines[1]).toMatch(
      /^exa_search +sentiment +query, numResults\?, daysBack\? +Search the web[^\n]* for news[^\n]*\.$/,
    );
    expect(lines[1]!.length).toBeLessThan(200);
  });

  it('--json still prints the exact function definitions', async () => {
    const io = captureIo();
    expect(await runCli(['tools', '--json'], io)).toBe(0);
    const [tool] = JSON.parse(io.out()) as Array<{
      name: string;
      definition: { type: string; function: { name: string } };
    }>;
    expect(tool?.definition).toMatchObject({ type: 'function', function: { name: 'exa_search' } });
  });
});
