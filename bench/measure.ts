/** Small measuring helpers: medians, child processes timed from the outside. */
import { spawn } from 'node:child_process';

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From spawn to exit, measured by this process. */
  wallMs: number;
}

export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    let ended = 0;
    child.once('exit', () => (ended = performance.now()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, wallMs: (ended || performance.now()) - started }));
  });
}
