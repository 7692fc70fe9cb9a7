/**
 * The roster in words: what the prompts, the help, the report and the MCP descriptions
 * say about the desks, computed from the definitions so that a desk added to the roster
 * is named everywhere at once.
 */
import { agentDefinitions, type AgentDefinition } from './index.js';

const numberWords = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/** "four"; a count past twelve in digits. */
export function countWord(count: number): string {
  return numberWords[count] ?? String(count);
}

/** "Quant, Risk and Execution": the house style, with no comma before "and". */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The desks of a roster, in its order. */
export function desksOf(roster: readonly AgentDefinition[] = agentDefinitions): AgentDefinition[] {
  return roster.filter((definition) => definition.role === 'desk');
}

/** "four desks" (one desk: "one desk"). */
export function deskCountText(roster: readonly AgentDefinition[] = agentDefinitions): string {
  const count = desksOf(roster).length;
  return `${countWord(count)} desk${count === 1 ? '' : 's'}`;
}

/** "Quant, Risk, Execution and Sentiment". */
export function deskNamesText(roster: readonly AgentDefinition[] = agentDefinitions): string {
  return listInWords(desksOf(roster).map((definition) => definition.name));
}

/** "Quant (technicals), Risk (sizing and drawdown), …": each desk with its remit, where it states one. */
export function deskRemitsText(roster: readonly AgentDefinition[] = agentDefinitions): string {
  return listInWords(
    desksOf(roster).map((definition) =>
      definition.remit ? `${definition.name} (${definition.remit})` : definition.name,
    ),
  );
}

/**
 * The placeholders every prompt may use for the desks: {{deskCount}} ("four desks"),
 * {{deskNames}} and {{deskRemits}}. Filled from the run's roster.
 */
export function rosterSlots(roster: readonly AgentDefinition[] = agentDefinitions): Record<string, string> {
  return { deskCount: deskCountText(roster), deskNames: deskNamesText(roster), deskRemits: deskRemitsText(roster) };
}
