/**
 * A real Redis for the queue tests: Debian's redis-server on a free 127.0.0.1 port,
 * with no persistence (`--save '' --appendonly no`), started by the test and stopped
 * by its PID. `redisServerPath()` is null where redis-server is not installed, and the
 * tests that need it skip with a message saying so (`.ci/debian-packages` lists it, so
 * CI installs it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export function redisServerPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : null;
}

export const noRedisMessage =
  'redis-server is not installed (apt-get install redis-server; .ci/debian-packages lists it): the queue tests that need a real Redis are skipped';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerPath();
  if (!binary) throw new Error(noRedisMessage);
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await ready(child, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => stop(child),
  };
}

function ready(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server on port ${port} did not start within 10 s:\n${output}`)),
      10_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(child.pid!, 'SIGTERM');
  });
}
