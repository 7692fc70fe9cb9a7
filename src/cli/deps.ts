import type { FetchBounds } from '../doctor/bounded-fetch.js';
import type { ChatModel } from '../llm/types.js';
import type { MarketData } from '../market/types.js';
import type { SearchProvider } from '../search/types.js';

/**
 * Seams for tests that run the CLI in-process: anything left out is built from
 * the environment (OpenAI, the market data sources, Exa).
 */
export interface CliDeps {
  model?: ChatModel;
  market?: MarketData;
  /** null: no search tool, as with `--search none`. */
  search?: SearchProvider | null;
  /** The run's clock when not replaying a cassette. */
  now?: () => Date;
  /**
   * Label the market data as synthetic demo data though no demo cassette is replayed:
   * what scripts/demo sets while it records the demo's cassettes.
   */
  syntheticMarket?: boolean;
  /** doctor's deadline and size bound per check (tests shorten them). */
  doctorBounds?: FetchBounds;
}
