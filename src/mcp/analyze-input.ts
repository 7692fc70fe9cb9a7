import { z } from 'zod';
import {
  requestAsOfSchema,
  runRequest,
  runRequestFields,
  type RequestDeclaration,
  type RunRequest,
  type RunRequestInput,
} from '../run/request.js';

/**
 * What an MCP `analyze` call takes: the request's own fields an assistant may set
 * (`assistantFields` in src/run/request.ts), with the request's bounds, messages and
 * descriptions. Absent fields are the server's (its flags, else the request's defaults),
 * so none carries a default here. Two differ in form only: the cap is also bounded by the
 * server's per-call cap, and the as-of is the historical day alone (a string).
 */
export function analyzeInputSchema(serverCapUsd: number, declaration: RequestDeclaration = runRequest): z.ZodObject {
  const fields = declaration.object.shape;
  const picked = Object.fromEntries(
    declaration.assistantFields.map((name) => [
      name,
      name === 'ticker' ? fields[name]! : withoutDefault(fields[name]!),
    ]),
  );
  return z.object({
    ...picked,
    maxCostUsd: runRequestFields.maxCostUsd
      .unwrap()
      .unwrap()
      .max(serverCapUsd)
      .optional()
      .describe(`Spending cap for this call in USD (at most ${serverCapUsd})`),
    asOf: historicalDay
      .optional()
      .describe(
        "Analyse as of this past session's close on the ticker's exchange (YYYY-MM-DD), seeing nothing after it",
      ),
  });
}

/** The day of a historical as-of, as the request checks it. */
const historicalDay = requestAsOfSchema.options[1].shape.day;

/** An analyze call's arguments, as the input schema hands them over (an extended declaration adds its own). */
export type AnalyzeInput = Partial<Pick<RunRequest, 'agents' | 'blind' | 'samples' | 'minAgreement'>> & {
  ticker: string;
  maxCostUsd?: number;
  asOf?: string;
};

/** A field as optional with no default: the request fills the default where the server does not. */
function withoutDefault(field: z.core.$ZodType): z.ZodType {
  const description = (field as z.ZodType).description;
  let inner = field;
  // `agents`: a default, then a transform the request applies when it parses.
  if (inner instanceof z.ZodPipe && inner.in instanceof z.ZodDefault) inner = inner.in.unwrap();
  else if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault) inner = inner.unwrap();
  const optional = (inner as z.ZodType).optional();
  return description === undefined ? optional : optional.describe(description);
}

/**
 * One call's request, before it is parsed: the server's own request (its flags) with what
 * the call set; the cap the lower of the call's and the server's per-call cap; a blind call
 * searches nothing and binds no MCP tool, whatever the server was started with.
 */
export function requestOfCall(
  input: AnalyzeInput,
  server: Omit<RunRequestInput, 'ticker'>,
  serverCapUsd: number,
): RunRequestInput {
  const { ticker, asOf, maxCostUsd, blind, ...set } = input;
  const given = Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined));
  return {
    ...server,
    ...given,
    ticker,
    ...(asOf !== undefined ? { asOf: { kind: 'historical' as const, day: asOf.trim() } } : {}),
    maxCostUsd: Math.min(maxCostUsd ?? serverCapUsd, serverCapUsd),
    ...(blind ? { blind: true, search: 'none' as const, mcpConfig: undefined } : {}),
  };
}
