/** The claim types are part of the result contract (src/result/claims.ts); here for the room's own modules. */
export type { Claim, ClaimCounts, ClaimStatus, ClaimUnit, ClaimsSummary } from '../result/claims.js';
