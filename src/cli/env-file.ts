import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv as parseEnvText } from 'node:util';
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

/**
 * Node's own .env parser (node:util parseEnv, Node >= 20.12; engines asks for 20.19),
 * so `KEY="value" # comment`, `export KEY=…`, quotes and CRLF mean here what they mean
 * to `node --env-file` and dotenv.
 */
export function parseEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseEnvText(text))) {
    if (value !== undefined) values[name] = value;
  }
  return values;
}
