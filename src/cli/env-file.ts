import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, errorMessage } from '../errors.js';

/**
 * Loads `.env` from the working directory into a copy of the environment. Variables
 * already set win (the shell is more specific than a file). A missing file is
 * fine; one that exists but cannot be read is an error, not silently skipped.
 */
export function loadEnvFile(cwd: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const path = join(cwd, '.env');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...env };
    throw new ConfigError(`cannot read ${path}: ${errorMessage(error)}`, { cause: error });
  }
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (merged[name] === undefined) merged[name] = value;
  }
  return merged;
}

export function parseEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const name = match[1] as string;
    let value = (match[2] as string).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n');
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    values[name] = value;
  }
  return values;
}
