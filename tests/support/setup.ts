// Any unhandled rejection or uncaught exception during a test file fails the run:
// a promise nobody awaits is a bug (a lost error, or work still running after a result).
const failures: unknown[] = [];
const onFailure = (error: unknown) => {
  failures.push(error);
};
process.on('unhandledRejection', onFailure);
process.on('uncaughtException', onFailure);

import { afterEach } from 'vitest';

afterEach(() => {
  if (failures.length > 0) {
    const [first] = failures.splice(0);
    throw new Error(
      `unhandled rejection or uncaught exception during the test: ${String(first instanceof Error ? first.stack : first)}`,
    );
  }
});
