// The tests that start other programs, which `npm run test:fast` (vitest.fast.config.ts) leaves
// out; tests/ci/test-fast.test.ts fails when a test file starts one and is not listed here.

/** Whole folders: every file in them starts a process. */
const processFolders: readonly string[] = [
  'tests/package/**', // npm pack + install
  'tests/smoke/**', // the built CLI
  'tests/queue/**', // redis-server, worker processes
  'tests/engine/**', // the llama engine
];

/** Single files elsewhere, by what they start. */
const processFiles: readonly string[] = [
  // the built CLI
  'tests/cli/first-cause.test.ts',
  'tests/cli/front-door.test.ts',
  'tests/cli/home-unusable.test.ts',
  'tests/cli/report-issue33.test.ts',
  'tests/faults/hostile.test.ts',
  'tests/faults/interrupt.test.ts',
  'tests/ledger/append.test.ts',
  'tests/ledger/shells.test.ts',
  'tests/portfolio/demo-refusal.test.ts',
  'tests/record/evaluate-record.test.ts',
  'tests/record/exa-miss-agent.test.ts',
  'tests/record/openai-search-record.test.ts',
  'tests/record/replay-retry.test.ts',
  'tests/record/replay-without-exa.test.ts',
  'tests/record/review-replay.test.ts',
  'tests/record/round-trip.test.ts',
  'tests/run/shells.test.ts',
  'tests/store/many-runs.test.ts',
  'tests/universe/process.test.ts',
  // MCP stdio servers (`autohedge mcp` or the fixture server)
  'tests/mcp/analyze-mcp.test.ts',
  'tests/mcp/blind-mcp.test.ts',
  'tests/mcp/bounds-demo.test.ts',
  'tests/mcp/bounds.test.ts',
  'tests/mcp/client.test.ts',
  'tests/mcp/commands.test.ts',
  'tests/mcp/demo-evaluate.test.ts',
  'tests/mcp/home-reservations.test.ts',
  'tests/mcp/oversized.test.ts',
  'tests/mcp/schema.test.ts',
  'tests/mcp/server-transport.test.ts',
  'tests/mcp/server.test.ts',
  'tests/mcp/warnings.test.ts',
  'tests/faults/mcp.test.ts',
  'tests/tools/contract.test.ts',
  // redis-server
  'tests/watch/enqueue.test.ts',
  // Chromium
  'tests/portfolio/html-browser.test.ts',
  'tests/report/claims.test.ts',
  'tests/report/html-browser.test.ts',
  'tests/report/html-phone.test.ts',
  'tests/watch/page-phone.test.ts',
  'tests/view/browser.test.ts',
  // openssl ts (RFC 3161 anchors)
  'tests/evaluate/forward.test.ts',
  'tests/ledger/anchors.test.ts',
  'tests/view/ledger-anchors.test.ts',
  // a nested vitest, the build script, a node script
  'tests/ci/build-digest.test.ts',
  'tests/ci/ci-summary.test.ts',
  'tests/ci/plain-output.test.ts',
  'tests/faults/unhandled.test.ts',
];

export const processStarting: readonly string[] = [...processFolders, ...processFiles];
