export { checkClaims, decisionTexts, maxCheckedChars, type ClaimsCheck, type ClaimsInput } from './check.js';
export { extractFigures, type Figure } from './extract.js';
export { claimFindings, claimLimits, contradictionText, whereWritten } from './findings.js';
export { countClaims, summarizeClaims } from './summary.js';
export type { Claim, ClaimCounts, ClaimStatus, ClaimUnit, ClaimsSummary } from './types.js';
