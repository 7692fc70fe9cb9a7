import { z } from 'zod';

/**
 * The two documents EDGAR serves for a company, validated at the boundary:
 * `companyfacts` (every XBRL fact the company filed, one row per filing that reported it)
 * and `submissions` (the filing index, column-oriented, with each filing's acceptance
 * time). Only the fields the as-filed rule needs are kept; `frame`, `fy` and `fp` are
 * dropped on purpose: they describe the filing or mark SEC's pick, never the period.
 */

const factRowSchema = z.object({
  start: z.string().optional(),
  end: z.string(),
  val: z.number(),
  accn: z.string(),
  form: z.string(),
  filed: z.string(),
});

export type FactRow = z.infer<typeof factRowSchema>;

const tagSchema = z.object({ units: z.record(z.string(), z.array(factRowSchema)) });

export const companyFactsSchema = z.object({
  cik: z.union([z.number(), z.string()]),
  entityName: z.string().optional(),
  facts: z.record(z.string(), z.record(z.string(), tagSchema)).default({}),
});

export type CompanyFacts = z.infer<typeof companyFactsSchema>;

/** The parallel arrays of one page of the filing index: index i of each is one filing. */
export const filingColumnsSchema = z.object({
  accessionNumber: z.array(z.string()),
  filingDate: z.array(z.string()),
  acceptanceDateTime: z.array(z.string()),
  form: z.array(z.string()),
  items: z.array(z.string()).optional(),
});

export type FilingColumns = z.infer<typeof filingColumnsSchema>;

export const submissionsSchema = z.object({
  cik: z.union([z.number(), z.string()]),
  name: z.string().optional(),
  filings: z.object({
    recent: filingColumnsSchema,
    files: z
      .array(z.object({ name: z.string(), filingFrom: z.string().optional(), filingTo: z.string().optional() }))
      .default([]),
  }),
});

export type Submissions = z.infer<typeof submissionsSchema>;

/** SEC's ticker list: `{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."},…}`. */
export const companyTickersSchema = z.record(
  z.string(),
  z.object({ cik_str: z.number(), ticker: z.string(), title: z.string().optional() }),
);

/** One filing of the index. */
export interface Filing {
  accession: string;
  form: string;
  /** YYYY-MM-DD as EDGAR dates it (a filing accepted after about 17:30 New York time gets the next business day). */
  filingDate: string;
  /** ISO UTC instant, read as New York wall time (acceptance.ts). */
  acceptedAt: string;
  items: string[];
}
