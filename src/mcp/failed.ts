import type { McpServerHandle } from './types.js';

/** A server that could not be had: every call answers the model with the reason. */
export function failedHandle(name: string, reason: string): McpServerHandle {
  return {
    name,
    tools: null,
    error: reason,
    call: () => Promise.reject(new Error(`not available: ${reason}`)),
    close: async () => {},
  };
}
