import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { MarketSnapshot } from '../../src/market/types.js';
import { captureIo } from '../support/cli.js';

/**
 * Issue 44 item 16: the demo's data is made up, so the block the agents and the user read
 * names it "synthetic demo data", from the snapshot's vendor record — never a real vendor.
 */

describe('the demo market block names its data as synthetic', () => {
  it('market ACME --demo: the source line, the quote heading and the range say demo data, no vendor named', async () => {
    const io = captureIo();
    expect(await runCli(['market', 'ACME', '--demo'], io)).toBe(0);
    const text = io.out();
    expect(text).toContain('\nSource: synthetic demo data. Use these numbers;');
    expect(text).toContain('\nQUOTE & KEY STATISTICS (demo data, quote time 2026-11-27 18:00 UTC)\n');
    expect(text).toMatch(/\n52-week range \(demo data\): /);
    expect(text).not.toMatch(/Yahoo/);
  });

  it('--json records the vendor of each part as the demo', async () => {
    const io = captureIo();
    expect(await runCli(['market', 'ACME', '--demo', '--json'], io)).toBe(0);
    const snapshot = JSON.parse(io.out()) as MarketSnapshot;
    expect(snapshot.vendors?.bars).toEqual({
      vendor: 'demo',
      label: 'synthetic demo data',
      shortLabel: 'demo data',
      cached: false,
    });
    expect(snapshot.vendors?.quote?.vendor).toBe('demo');
    expect(snapshot.text).not.toMatch(/Yahoo/);
  });
});
