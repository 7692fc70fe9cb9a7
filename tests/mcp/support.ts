import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';

export const fixtureServer = resolve(import.meta.dirname, '../fixtures/mcp/server.mjs');
export const longToolName = `fetch_the_complete_historical_fundamentals_table_for_a_symbol_${'x'.repeat(20)}`;

/** A config file in a fresh directory; returns its path. */
export function writeConfig(config: unknown): string {
  const directory = mkdtempSync(join(tmpdir(), 'autohedge-mcp-'));
  const path = join(directory, 'mcp.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

export function stdioServer(allow: Record<string, string[]>, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [fixtureServer], autohedge: { agents: allow }, ...extra };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True once every pid is gone; false if one outlives `withinMs` (a process left behind would live on forever). */
export async function waitUntilGone(pids: number[], withinMs = longBeforeTheHangEnds(neverEndsMs)): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (pids.every((pid) => !isAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pids.every((pid) => !isAlive(pid));
}

/** The fixture's Streamable HTTP mode as a child process; resolves with its URL. */
export async function startHttpFixture(): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [fixtureServer, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited with ${code}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
