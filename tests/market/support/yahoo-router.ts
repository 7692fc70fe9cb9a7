/** Moved to testkit/yahoo.ts (the one Yahoo fake, shared with bench/); kept for the tests that import this path. */
export * from '../../../testkit/yahoo.js';
