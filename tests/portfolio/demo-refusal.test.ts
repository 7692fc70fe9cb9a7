/** Issue 44 item 34: the demo's refusal of a real book says it needs prices, not a model key. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt } from '../smoke/support.js';

beforeAll(ensureBuilt, 180_000);

describe('portfolio --demo with a real name held', () => {
  it('says to drop --demo for market prices, not to set a model key', async () => {
    const holdings = path.join(mkdtempSync(path.join(tmpdir(), 'autohedge-demo-book-')), 'holdings.csv');
    writeFileSync(holdings, 'ticker,shares\nNVDA,10\n');
    const run = await runBuilt(['portfolio', '--demo', '--holdings', holdings, '--cash', '1000']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('drop --demo to price NVDA from the market (no model key needed)');
    expect(run.stderr).not.toContain('OPENAI_API_KEY');
  }, 60_000);
});
