/** Issue 44 item 17: a degraded run names its first cause, through the built CLI. */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt } from '../smoke/support.js';

beforeAll(ensureBuilt, 180_000);

describe('analyze --demo --max-cost 0.01', () => {
  it("says the cap stopped the Director's plan, and blames no desk", async () => {
    const run = await runBuilt(['analyze', 'ACME', '--demo', '--max-cost', '0.01']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toContain(
      "DEGRADED: the --max-cost cap stopped the Director's plan, so no desk ran. There is no decision.",
    );
    expect(run.stdout).not.toMatch(/desk failed/);
  }, 60_000);
});
