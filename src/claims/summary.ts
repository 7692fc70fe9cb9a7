import type { Claim, ClaimCounts, ClaimsSummary } from './types.js';

export function countClaims(claims: readonly Claim[]): ClaimCounts {
  const count = (status: Claim['status']) => claims.filter((claim) => claim.status === status).length;
  const verified = count('verified');
  const derived = count('derived');
  return {
    total: claims.length,
    verified,
    derived,
    unsourced: count('unsourced'),
    contradicted: count('contradicted'),
    verifiedShare: claims.length === 0 ? null : (verified + derived) / claims.length,
  };
}

/** The counts of the whole run and of each agent, in the order the agents first appear. */
export function summarizeClaims(claims: readonly Claim[]): ClaimsSummary {
  const agents = [...new Set(claims.map((claim) => claim.agent))];
  return {
    ...countClaims(claims),
    byAgent: Object.fromEntries(
      agents.map((agent) => [agent, countClaims(claims.filter((claim) => claim.agent === agent))]),
    ),
  };
}
