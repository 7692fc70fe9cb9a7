/**
 * Headless Chromium for tests that render a report in a real browser. The browser
 * is started by the test as a child process in its own process group, with a fresh
 * profile and no network features, and stopped by its process id when it is done or
 * too slow. `chromiumPath()` is null when no browser is installed: tests skip then,
 * saying so.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string | null {
  const chosen = process.env.AUTOHEDGE_CHROMIUM;
  if (chosen) return existsSync(chosen) ? chosen : null;
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

export const chromiumMissing =
  'chromium is not installed (Debian package `chromium`, see .ci/debian-packages; or set AUTOHEDGE_CHROMIUM): browser tests of report.html skipped';

export interface ChromiumRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Headless Chromium on this closed network: no background connections, no sandbox as root. */
export const headlessFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
] as const;

/** Runs Chromium headless on `url` with extra flags (--screenshot=…, --dump-dom, --print-to-pdf=…). */
export async function runChromium(url: string, flags: string[], timeoutMs = 60_000): Promise<ChromiumRun> {
  const binary = chromiumPath();
  if (!binary) throw new Error(chromiumMissing);
  const profile = mkdtempSync(join(tmpdir(), 'autohedge-chromium-'));
  const args = [...headlessFlags, `--user-data-dir=${profile}`, ...flags, url];
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stop = () => {
    // The whole group this test started (the browser and any helper it left), by id.
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  const timer = setTimeout(stop, timeoutMs);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exitCode) => resolve(exitCode));
    });
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
    stop();
    rmSync(profile, { recursive: true, force: true });
  }
}
