import type { AgentDefinition } from '../../agents/index.js';
import { desksOf } from '../../agents/roster.js';
import { runAgent } from '../agent/run-agent.js';
import type { AgentContext, AgentReport } from '../agent/types.js';
import { fillTemplate } from './prompts.js';
import { definitionOf, disabledToolNotes, specFor, type SpecSource } from './specs.js';

/** A desk's brief: the Director's, from the plan, or the desk's own standing one. */
export interface Brief {
  text: string;
  from: 'director' | 'standing';
}

export function standingBrief(definition: AgentDefinition, ticker: string): Brief {
  const template = definition.standingBrief ?? `Report on {{ticker}} as the ${definition.name} desk.`;
  return { text: fillTemplate(template, { ticker }), from: 'standing' };
}

/** The desk's task; the market block ends it only in the legacy layout (null: it is in the shared block already). */
export function deskTask(ticker: string, brief: Brief, taskMarket: string | null): string {
  const label = brief.from === 'director' ? "The Director's brief for you:" : 'Your brief:';
  const task = `Ticker: ${ticker}\n\n${label}\n${brief.text}`;
  return taskMarket === null ? task : `${task}\n\n${taskMarket}`;
}

/** One desk on its brief; never throws for what a model or tool does (runAgent's rule). */
export function runDesk(
  id: string,
  brief: Brief,
  work: { ticker: string; taskMarket: string | null; specs: SpecSource; context: AgentContext },
): Promise<AgentReport> {
  return runAgent(
    specFor(id, work.specs),
    deskTask(work.ticker, brief, work.taskMarket) + disabledToolNotes(id, work.specs),
    work.context,
  );
}

/** The desks of the roster, in its order. */
export function deskDefinitions(roster: readonly AgentDefinition[]): AgentDefinition[] {
  return desksOf(roster);
}

export function standingBriefOf(roster: readonly AgentDefinition[], id: string, ticker: string): Brief {
  return standingBrief(definitionOf(roster, id), ticker);
}

/** Reports in the roster's order, whatever order they finished in. */
export function orderReports(reports: AgentReport[], roster: readonly AgentDefinition[]): AgentReport[] {
  const order = roster.map((definition) => definition.id);
  return [...reports].sort((a, b) => order.indexOf(a.agent) - order.indexOf(b.agent));
}

/**
 * What the reports mean for trusting the run: a failed desk, or a desk whose every
 * tool call failed (Sentiment without a working search speaks without news).
 */
export function reportWarnings(reports: AgentReport[]): string[] {
  const warnings: string[] = [];
  for (const report of reports) {
    if (report.status === 'failed') {
      warnings.push(`${report.agent} failed: ${report.error ?? 'unknown error'}`);
      continue;
    }
    const failedCalls = report.toolCalls.filter((call) => call.error !== null);
    if (report.toolCalls.length > 0 && failedCalls.length === report.toolCalls.length) {
      warnings.push(
        `${report.agent}: every tool call failed (${failedCalls[0]?.error ?? ''}); its report rests on no tool results`,
      );
    }
  }
  return warnings;
}

/** `quant: timed out after 120 s; risk: …` — the reason of a run whose desks all failed. */
export function failureSummary(reports: AgentReport[]): string | null {
  const failed = reports.filter((report) => report.status === 'failed');
  if (failed.length === 0) return null;
  return failed.map((report) => `${report.agent}: ${report.error ?? 'failed'}`).join('; ');
}
