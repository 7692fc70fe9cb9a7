/** The run service's defaults, with no imports, so `--help` shows them without loading anything. */

/** Tickers analysed at once by one command, and analyses one worker runs at once. */
export const defaultConcurrency = 2;
/**
 * The cap of one MCP `analyze` call, USD: an upstream agent can loop, so every call is
 * capped unless `autohedge mcp --run-max-cost` says otherwise.
 */
export const defaultMcpCallCapUsd = 1;
/** What one `autohedge mcp` server may spend over its lifetime, USD, unless `--max-cost` says otherwise. */
export const defaultMcpServerCapUsd = 5;
/** Analyses one `autohedge mcp` server runs at once, unless `--concurrency` says otherwise. */
export const defaultMcpConcurrency = 2;
