import { scrubSecrets } from '../record/scrub.js';
import type { CliIo } from './io.js';

/**
 * The keys a run was given never leave it, whatever carried them: a server can echo
 * an Authorization header into an error body or even into an answer. Everything the
 * analyze command prints passes through here, and the result it prints and saves is
 * scrubbed once, so every renderer and file works from the same clean copy.
 */
export function redactingIo(io: CliIo, secrets: readonly string[]): CliIo {
  if (secrets.length === 0) return io;
  return {
    ...io,
    stdout: (text) => io.stdout(scrubSecrets(text, secrets)),
    stderr: (text) => io.stderr(scrubSecrets(text, secrets)),
  };
}

/** A copy with every string scrubbed of the secrets. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrubSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, secrets)) as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = redactDeep(item, secrets);
    return copy as T;
  }
  return value;
}
