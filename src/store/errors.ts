import { AutohedgeError } from '../errors.js';

/** `unreadable`: an I/O error while reading (the file itself may be fine); `corrupt`: read, but not a saved result. */
export type RunStoreProblem = 'unwritable' | 'partial' | 'corrupt' | 'unreadable';

/**
 * The run store could not do its job. When saving, the caller turns this into a
 * warning ("run not saved: <reason>") — the analysis itself was already printed.
 */
export class RunStoreError extends AutohedgeError {
  constructor(
    message: string,
    readonly problem: RunStoreProblem,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
