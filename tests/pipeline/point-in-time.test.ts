import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkHistoricalSearch, historicalToolsWarning } from '../../src/pipeline/point-in-time.js';

describe('point-in-time checks of a historical run', () => {
  it('a search with no date filter is refused; Exa and no search are fine', () => {
    expect(() => checkHistoricalSearch('openai', '2025-06-02')).toThrow(
      new UsageError('--search openai cannot be used with --as-of 2025-06-02: it has no date filter, so its results could come from after that day; use --search exa or --search none'),
    );
    expect(() => checkHistoricalSearch('exa', '2025-06-02')).not.toThrow();
    expect(() => checkHistoricalSearch('none', '2025-06-02')).not.toThrow();
  });

  it('MCP tools are named in a warning; none, no warning', () => {
    expect(historicalToolsWarning(['fs_read', 'browser_fetch', 'fs_read'], '2025-06-02')).toBe(
      "as of 2025-06-02, but the tool(s) browser_fetch, fs_read from outside autohedge (MCP servers, a caller's own) are not point-in-time: what they return may come from after that day",
    );
    expect(historicalToolsWarning([], '2025-06-02')).toBeNull();
  });
});
