/**
 * Names shared across rooms, written once. Vendor facts (URLs, paths, quirks) live in
 * their adapters; only what several adapters and the cassette layer must agree on is here.
 */

/** Every outbound request an agent causes carries its id here, so a replay miss can name the agent. */
export const agentHeader = 'x-autohedge-agent';
