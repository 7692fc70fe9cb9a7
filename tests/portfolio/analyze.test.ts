import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

/** `portfolio --analyze`: fresh runs through the run service first (the demo cassette replays them), then the book. */
describe('autohedge portfolio --analyze', () => {
  it('analyses the held tickers, saves the runs, and sizes exactly those decisions', async () => {
    const io = captureIo();
    writeFileSync(join(io.cwd, 'book.csv'), 'symbol,quantity\nACME,10\nCASH,98000\n');
    const code = await runCli(
      ['portfolio', '--holdings', 'book.csv', '--demo', '--analyze', '--json', '--no-save'],
      io,
    );
    expect(code).toBe(0);
    const runs = readdirSync(join(io.env.AUTOHEDGE_HOME as string, 'runs'));
    expect(runs).toHaveLength(1);
    const plan = JSON.parse(io.out()) as {
      targets: Array<{ ticker: string; decisionRunId: string | null; shares: number }>;
      orders: Array<{ ticker: string; side: string; quantity: number }>;
    };
    expect(plan.targets).toEqual([expect.objectContaining({ ticker: 'ACME', decisionRunId: runs[0], shares: 28 })]);
    expect(plan.orders).toEqual([expect.objectContaining({ ticker: 'ACME', side: 'BUY', quantity: 18 })]);
    expect(io.err()).toContain(`autohedge: analysed ACME: ok (BUY, conviction 64), run ${runs[0]}`);
  });

  it('makes new runs only: not with --runs or --latest', async () => {
    const io = captureIo();
    writeFileSync(join(io.cwd, 'book.csv'), 'symbol,quantity\nCASH,1000\n');
    expect(await runCli(['portfolio', '--holdings', 'book.csv', '--demo', '--analyze', '--latest'], io)).toBe(2);
    expect(io.err()).toContain('--analyze makes new runs');
  });
});
