/**
 * A replay reads and parses its cassette once: the CLI's services take what they need
 * (the recorded servers and symbols) from the Replay rather than reading the file again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { buildServices } from '../../src/cli/services.js';
import type { Cassette } from '../../src/record/index.js';
import { smokeCassette } from '../smoke/support.js';

const reads = vi.hoisted(() => ({ paths: [] as string[] }));

vi.mock(import('../../src/record/cassette.js'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    readCassette: async (file: string) => {
      reads.paths.push(file);
      return original.readCassette(file);
    },
  };
});

let cwd: string;

beforeEach(() => {
  cwd = mkdtempSync(path.join(tmpdir(), 'autohedge-read-once-'));
  reads.paths = [];
});

afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

it('services built for a replay read the cassette once, and know its servers and symbols from the Replay', async () => {
  const session = await buildServices(
    {
      env: { AUTOHEDGE_HOME: cwd },
      cwd,
      replay: smokeCassette,
      argv: ['analyze', 'ACME', '--replay', smokeCassette],
      needsModel: true,
      warn: () => {},
    },
    {},
  );
  try {
    expect(reads.paths).toEqual([smokeCassette]);
    // The symbols come from the recorded chart URLs: ACME and GLBX, nothing else.
    expect(() => session.checkDemoTickers(['ACME', 'GLBX'])).not.toThrow();
    expect(() => session.checkDemoTickers(['NVDA'])).toThrow('the demo covers ACME, GLBX only (synthetic data)');
  } finally {
    await session.close();
  }
});

it('a Replay exposes its recorded URLs in recorded order', async () => {
  const { startReplay } = await import('../../src/record/index.js');
  const replay = await startReplay(smokeCassette);
  try {
    const cassette = JSON.parse(readFileSync(smokeCassette, 'utf8')) as Cassette;
    expect(replay.urls).toEqual(cassette.interactions.map((interaction) => interaction.url));
  } finally {
    replay.stop();
  }
});
