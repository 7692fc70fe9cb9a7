import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

describe('analyze --demo with options the demo was not recorded with', () => {
  it.each([
    [['--model', 'gpt-4.1'], '--model'],
    [['--search', 'none'], '--search'],
    [['--max-position', '1'], '--max-position'],
    [['--max-risk', '5'], '--max-risk'],
    [['--min-reward-risk', '2'], '--min-reward-risk'],
  ])('%j is one usage line naming the flag, exit 2, nothing on stdout', async (flags, flag) => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', '--demo', ...flags], io)).toBe(2);
    expect(io.err().trim().split('\n')).toEqual([
      `autohedge: the demo is recorded with the default models, search and guardrail limits: ${flag} cannot be combined with --demo (record your own cassette with --record)`,
    ]);
    expect(io.out()).toBe('');
  });

  it('the defaults spelled out still replay', async () => {
    const io = captureIo();
    expect(
      await runCli(
        ['analyze', 'ACME', '--demo', '--search', 'exa', '--max-position', '10', '--json', '--no-save', '--quiet'],
        io,
      ),
      io.err(),
    ).toBe(0);
  });

  it.each([
    ['--mcp-config', (cwd: string) => ({ argv: ['--mcp-config', join(cwd, 'mcp.json')], env: {} })],
    ['AUTOHEDGE_MCP_CONFIG', (cwd: string) => ({ argv: [], env: { AUTOHEDGE_MCP_CONFIG: join(cwd, 'mcp.json') } })],
  ])('a valid MCP config by %s is refused up front in one line, nothing spawned or run', async (named, setup) => {
    const io = captureIo();
    writeFileSync(
      join(io.cwd, 'mcp.json'),
      JSON.stringify({
        mcpServers: { quotes: { command: 'node', args: ['server.js'], autohedge: { agents: { quant: ['quote'] } } } },
      }),
    );
    const { argv, env } = setup(io.cwd);
    expect(await runCli(['analyze', 'ACME', '--demo', ...argv], { ...io, env: { ...io.env, ...env } })).toBe(2);
    expect(io.err().trim().split('\n')).toEqual([
      `autohedge: the demo is recorded without MCP tools: ${named} cannot be combined with --demo (record your own cassette with --record)`,
    ]);
    expect(io.out()).toBe('');
  });
});
