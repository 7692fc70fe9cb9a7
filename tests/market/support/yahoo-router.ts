/** Moved to tests/support/yahoo.ts (the one Yahoo fake); kept for bench/services.ts until bench stops importing tests/. */
export * from '../../support/yahoo.js';
