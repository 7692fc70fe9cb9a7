/**
 * The header every outbound model and search request carries with the sending agent's
 * id, so a replay miss can name the agent. One literal, read by the clients that send
 * it and the record layer that keeps and reads it.
 */
export const agentHeader = 'x-autohedge-agent';
