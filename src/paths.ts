import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | undefined;

/**
 * The installed package's root (where package.json, prompts/ and the demo cassette
 * live). Found by walking up from this module, so it works from src/ under test,
 * from dist/ in a clone and from a global install — never the current directory.
 */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (manifest.name === 'autohedge') return (cachedRoot = directory);
    }
    const parent = dirname(directory);
    if (parent === directory) throw new Error('autohedge: cannot find the package root');
    directory = parent;
  }
}

/** The demo cassette shipped with the package (`--demo`). */
export function demoCassettePath(): string {
  return join(packageRoot(), 'demo', 'demo.cassette.json');
}

/** The synthetic prices after the demo day, for `evaluate --demo` (scripts/demo/generate.mjs). */
export function demoEvaluationCassettePath(): string {
  return join(packageRoot(), 'demo', 'evaluation.cassette.json');
}

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/** $AUTOHEDGE_HOME, default ~/.autohedge. */
export function autohedgeHome(env: NodeJS.ProcessEnv): string {
  const configured = env.AUTOHEDGE_HOME?.trim();
  return configured ? resolve(configured) : join(homedir(), '.autohedge');
}
