import { scrubText } from '../scrub.js';
import type { CliIo } from './io.js';
import { sourceKeyVariables } from '../market/sources/index.js';

/**
 * The keys a run was given never leave it, whatever carried them: a server can echo
 * an Authorization header into an error body or even into an answer, and a key pasted
 * as `--model sk-…` is echoed in progress lines and errors. Everything a command prints
 * passes through here — stdout and stderr alike, the exact keys and anything shaped
 * like one (src/scrub.ts) — and the result it prints and saves is scrubbed once, so
 * every renderer and file works from the same clean copy.
 */
export function redactingIo(io: CliIo, secrets: readonly string[]): CliIo {
  return {
    ...io,
    stdout: (text) => io.stdout(scrubText(text, secrets)),
    stderr: (text) => io.stderr(scrubText(text, secrets)),
  };
}

/** The key values to scrub from everything written. */
export function secretsOf(env: NodeJS.ProcessEnv): string[] {
  return [env.OPENAI_API_KEY, env.EXA_API_KEY, ...sourceKeyVariables.map((name) => env[name])]
    .filter((value): value is string => typeof value === 'string' && value.trim().length >= 8)
    .map((value) => value.trim());
}
