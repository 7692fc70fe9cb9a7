// Moved to testkit/ (shared with bench/, which must not import tests/); this path stays for the tests that import it.
export * from '../../testkit/yahoo.js';
