import { scrubSecrets } from '../scrub.js';
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

