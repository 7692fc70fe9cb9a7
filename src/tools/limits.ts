/**
 * The agent loop's cap on one tool result's characters before it reaches the model.
 * Here, not in src/agent, because tools size their own output below it (a cut result
 * would lose the closing delimiter of an untrusted-content block).
 */
export const toolResultMaxCharacters = 12_000;
