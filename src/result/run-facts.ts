import type { AnalysisResult, ContaminationLabel } from './types.js';

/** The agent → model map of a run: as its options recorded them, else as its usage saw them. */
export function modelsOf(result: AnalysisResult): Record<string, string> {
  if (result.options?.models) return { ...result.options.models };
  return Object.fromEntries(Object.entries(result.usage.byAgent).map(([agent, usage]) => [agent, usage.model]));
}

/** A saved run's contamination label; runs saved before the label existed were live, and a live run is clean. */
export function contaminationLabel(result: AnalysisResult): ContaminationLabel {
  if (result.contamination) return result.contamination.label;
  return result.asOfMode === 'historical' ? 'unknown' : 'clean';
}

/** The prompt tokens the server said the flex tier served, over every agent (0: none, or saved before flex existed). */
export function flexPromptTokens(usage: AnalysisResult['usage']): number {
  return Object.values(usage.byAgent).reduce((sum, agent) => sum + (agent.flexPromptTokens ?? 0), 0);
}
