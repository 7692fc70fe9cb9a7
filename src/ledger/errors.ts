import { AutohedgeError, ExitCode } from '../errors.js';

/**
 * The ledger or a key could not be read or written. A broken chain is not an error
 * (`verify` reports it); a missing file, an existing key or a file that is not what it
 * claims to be is the user's to fix (exit 2); a disk failure is not (exit 1).
 */
export class LedgerError extends AutohedgeError {
  constructor(
    message: string,
    readonly kind: 'missing' | 'exists' | 'invalid' | 'io' = 'io',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
  override get exitCode(): ExitCode {
    return this.kind === 'io' ? ExitCode.failed : ExitCode.usage;
  }
}
