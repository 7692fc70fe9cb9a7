import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { commandTickers, requiredTickers } from '../../src/cli/tickers.js';

/** The tickers of analyze, watch, enqueue and portfolio: the named ones, then --universe's, each once. */
describe('commandTickers', () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'autohedge-tickers-'));
    await writeFile(join(cwd, 'list.txt'), '# a watchlist\nmsft\nACME\n');
    await writeFile(join(cwd, 'empty.txt'), '# nothing\n');
  });
  afterAll(() => rm(cwd, { recursive: true, force: true }));

  it.each([
    [['acme', 'nvda'], undefined, ['ACME', 'NVDA'], ['ACME', 'NVDA']],
    [['acme', 'ACME'], undefined, ['ACME', 'ACME'], ['ACME']],
    [['nvda', 'acme'], 'list.txt', ['NVDA', 'ACME'], ['NVDA', 'ACME', 'MSFT']],
    [[], 'list.txt', [], ['MSFT', 'ACME']],
    [[], undefined, [], []],
  ])('%j with --universe %s: named %j, tickers %j', async (raw, universe, named, tickers) => {
    expect(await commandTickers(raw, universe, cwd)).toEqual({ named, tickers });
  });

  it('an empty list is the caller’s usage error, worded as the caller says', async () => {
    await expect(commandTickers([], undefined, cwd, requiredTickers(undefined))).rejects.toThrow(
      new UsageError("missing required argument 'tickers'"),
    );
    await expect(commandTickers([], 'empty.txt', cwd, requiredTickers('empty.txt'))).rejects.toThrow(
      'no tickers in --universe empty.txt',
    );
    await expect(commandTickers(['acme'], 'empty.txt', cwd, requiredTickers('empty.txt'))).resolves.toEqual({
      named: ['ACME'],
      tickers: ['ACME'],
    });
  });

  it('a malformed ticker is refused before anything is merged', async () => {
    await expect(commandTickers(['not a ticker!'], undefined, cwd)).rejects.toBeInstanceOf(UsageError);
  });
});
