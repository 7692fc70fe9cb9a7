/**
 * Cassettes: record every outbound HTTP exchange of a run to one scrubbed JSON file,
 * and replay it later with no network at all.
 *
 *   const recorder = await startRecording({ autohedgeVersion, asOf, argv }, { secrets: [openaiKey, exaKey] });
 *   ... run ...
 *   await recorder.stop('nvda.json');
 *
 *   const replay = await startReplay('nvda.json', { secrets });   // CassetteError (exit 2) if missing or not a cassette
 *   const clock = new Date(replay.meta.asOf);
 *   try { ... run ... } catch (error) { throw findReplayMiss(error) ?? error; } finally { replay.stop(); }
 *
 * Interception patches globalThis.fetch, once per process (src/record/intercept.ts):
 * the patch stays after stop() and passes requests through while no session listens.
 * openai and yahoo-finance2 look fetch up at call time, but exa-js copies
 * `global.fetch` when its module is first imported (src/search/exa.ts imports it
 * lazily, on the first search). So start the first recording or replay BEFORE anything
 * imports exa-js: an exa-js imported earlier keeps the real fetch and bypasses every
 * cassette. Later sessions in the same process (the MCP server, a queue worker) reach
 * exa-js through the same patch.
 *
 * A miss rejects the fetch with ReplayMissError (a CassetteError, exit 2). openai
 * wraps it in APIConnectionError (`cause`) after its connection retries (short: a
 * second or two); yahoo-finance2 and exa-js pass it through unwrapped. findReplayMiss()
 * digs it out of any cause chain; a caller that retries failed fetches should treat
 * isReplayMiss(error) as final. Clients keep their retries on under replay: a recorded
 * 429 or 5xx that was retried is followed in the cassette by the retry's exchange, and
 * replay serves it without the recorded retry-after wait.
 *
 * Only one recording or replay may be active at a time (CassetteError otherwise).
 */
export { readCassette, CASSETTE_FORMAT, CASSETTE_VERSION } from './cassette.js';
export type { Cassette, CassetteMeta, Interaction } from './cassette.js';
export { startRecording } from './recorder.js';
export { MCP_REQUEST_HEADER, mcpSectionSchema } from './mcp-section.js';
export type { McpSection } from './mcp-section.js';
export type { Recorder, RecordingMeta, RecordingOptions } from './recorder.js';
export { startReplay } from './replay.js';
export type { Replay, ReplayOptions } from './replay.js';
export { ReplayMissError, findReplayMiss, isReplayMiss } from './replay-miss.js';
export type { ReplayMiss } from './replay-miss.js';
export { REDACTED, requestCredentials, scrubHeaders, scrubSecrets, scrubText } from '../scrub.js';
export type { HeaderValues, ScrubbedHeaders } from '../scrub.js';
