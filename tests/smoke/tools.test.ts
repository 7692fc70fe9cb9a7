/**
 * `autohedge tools` through the built `bin/autohedge.js`: the built-in catalogue, each
 * tool's on/off state per kind of run asked of its own isEnabled, on stdout.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt } from './support.js';

beforeAll(ensureBuilt, 180_000);

describe('autohedge tools (built CLI, no keys)', () => {
  it('lists the built-in catalogue: desks, on/off per run kind, needs, cost, and why it is off', async () => {
    const run = await runBuilt(['tools']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('BUILT-IN'));
    expect(lines[header]).toMatch(/^BUILT-IN +DESKS +LIVE +--BLIND +--SEARCH NONE +--AS-OF$/);
    expect(lines[header + 1]).toMatch(/^exa_search +sentiment +on +off +off +on$/);
    expect(run.stdout).toContain('\n  exa_search needs EXA_API_KEY');
    expect(run.stdout).toContain('\n  exa_search costs $0.007 a search with Exa');
    expect(run.stdout).toContain('\n  exa_search is off: blind run (a query would name the company)\n');
    expect(run.stdout).toContain('\n  exa_search is off: --search none\n');
  });

  it('--json gives each built-in tool its catalogue entry beside the definition', async () => {
    const run = await runBuilt(['tools', '--json']);
    expect(run.code).toBe(0);
    const [search] = JSON.parse(run.stdout) as Array<{ name: string; builtIn: Record<string, unknown> }>;
    expect(search?.name).toBe('exa_search');
    expect(search?.builtIn).toMatchObject({
      desks: ['sentiment'],
      enabled: { live: true, blind: false, searchNone: false, historical: true },
      off: [
        { when: 'blind', reason: 'blind run (a query would name the company)' },
        { when: 'searchNone', reason: '--search none' },
      ],
    });
  });
});
