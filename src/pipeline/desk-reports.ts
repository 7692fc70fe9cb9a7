import { createHash } from 'node:crypto';
import { agentDefinitions, type AgentDefinition } from '../../agents/index.js';
import type { AgentReport } from '../agent/types.js';

/**
 * The desks' reports as the Director reads them: one JSON array (each report's text
 * a JSON string, so no line of it can pose as a heading or a marker) between two
 * marker lines whose tag is the hash of that JSON. A report cannot contain the tag
 * that closes its own block, and the tag is the same on every replay of the same
 * run, so a recorded decision request matches. Desks are named as the run's roster names them.
 */
export function frameDeskReports(
  reports: readonly AgentReport[],
  roster: readonly AgentDefinition[] = agentDefinitions,
): string {
  const agentName = (id: string) => roster.find((definition) => definition.id === id)?.name ?? id;
  const entries = reports.map((report) =>
    report.status === 'ok'
      ? { desk: agentName(report.agent), status: 'ok', report: report.text.trim() }
      : { desk: agentName(report.agent), status: 'failed', error: report.error ?? 'unknown error' },
  );
  const json = JSON.stringify(entries, null, 2);
  const tag = createHash('sha256').update(json).digest('hex').slice(0, 16);
  return `${deskReportsOpen(tag)}\n${json}\n${deskReportsClose(tag)}`;
}

export const deskReportsOpen = (tag: string) => `<<<DESK REPORTS ${tag}>>>`;
export const deskReportsClose = (tag: string) => `<<<END DESK REPORTS ${tag}>>>`;
