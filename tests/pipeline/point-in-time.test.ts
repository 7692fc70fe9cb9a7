import { describe, expect, it } from 'vitest';
import { historicalToolsWarning } from '../../src/pipeline/point-in-time.js';

describe('point-in-time checks of a historical run', () => {
  it('MCP tools are named in a warning; none, no warning', () => {
    expect(historicalToolsWarning(['fs_read', 'browser_fetch', 'fs_read'], '2025-06-02')).toBe(
      "as of 2025-06-02, but the tool(s) browser_fetch, fs_read from outside autohedge (MCP servers, a caller's own) are not point-in-time: what they return may come from after that day",
    );
    expect(historicalToolsWarning([], '2025-06-02')).toBeNull();
  });
});
