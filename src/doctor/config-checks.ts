import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import { structuredModeFromEnv, type StructuredMode } from '../llm/structured-mode.js';
import { check, type Check } from './types.js';
import { baseUrlProblem } from '../llm/endpoints.js';
import { scrubText } from '../scrub.js';

export const openAIBaseURL = 'https://api.openai.com/v1';

/** What the configuration says, and whether the model checks can run on it. */
export interface ConfigFacts {
  checks: Check[];
  apiKey: string | undefined;
  baseURL: string | undefined;
  exaKey: string | undefined;
  structuredMode: StructuredMode | undefined;
  /** False when the model cannot even be asked (no key and no server, a bad URL). */
  usable: boolean;
}

/** `.env`, the keys (present or not, never their values), the base URL, AUTOHEDGE_STRUCTURED. */
export function configChecks(env: NodeJS.ProcessEnv, cwd: string, baseUrlOption: string | undefined): ConfigFacts {
  const envFile = join(cwd, '.env');
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  const exaKey = env.EXA_API_KEY?.trim() || undefined;
  const baseURL = (baseUrlOption ?? env.OPENAI_BASE_URL?.trim()) || undefined;
  const checks: Check[] = [
    check('env-file', '.env', 'ok', existsSync(envFile) ? `read ${envFile}` : `none in ${cwd} (the environment only)`),
  ];

  const keys = `OPENAI_API_KEY ${apiKey ? 'set' : 'not set'}, EXA_API_KEY ${exaKey ? 'set' : 'not set'}`;
  const canAsk = Boolean(apiKey || baseURL);
  checks.push(
    canAsk
      ? check('keys', 'keys', 'ok', keys)
      : check('keys', 'keys', 'fail', `${keys}: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)`, true),
  );

  // The same rules as analyze's (src/cli/options.ts): what analyze refuses, doctor reports as configuration.
  const urlProblem = baseURL
    ? (baseUrlProblem(baseURL, baseUrlOption ? '--base-url' : 'OPENAI_BASE_URL') ?? undefined)
    : undefined;
  checks.push(
    urlProblem
      ? check('base-url', 'base URL', 'fail', scrubText(urlProblem), true)
      : check('base-url', 'base URL', 'ok', baseURL ? displayUrl(baseURL) : `${openAIBaseURL} (default)`),
  );

  let structuredMode: StructuredMode | undefined;
  let modeProblem = false;
  try {
    structuredMode = structuredModeFromEnv(env);
  } catch (error) {
    modeProblem = true;
    checks.push(check('structured-setting', 'AUTOHEDGE_STRUCTURED', 'fail', errorMessage(error), true));
  }
  return { checks, apiKey, baseURL, exaKey, structuredMode, usable: canAsk && !urlProblem && !modeProblem };
}

/** Origin and path only: a URL's user info or query may carry a key. */
export function displayUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(not a URL)';
  }
}
