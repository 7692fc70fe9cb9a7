/**
 * The stylesheet inlined into report.html: system fonts only (nothing to fetch),
 * one column that fits a phone, tables that scroll sideways rather than overflow (or,
 * marked `stack`, turn each row into a card of labelled cells on a phone),
 * and a print layout without backgrounds that keeps sections whole.
 */
export const reportStyle = `
:root { color-scheme: light; --ink: #111827; --muted: #6b7280; --line: #e5e7eb; --card: #f9fafb;
  --buy: #15803d; --sell: #b91c1c; --hold: #a16207; --error: #b91c1c; --warning: #a16207; --info: #1d4ed8; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem; color: var(--ink); background: #fff; line-height: 1.5;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 56rem; margin: 0 auto; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; line-height: 1.25; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .25rem; }
h4 { font-size: .85rem; letter-spacing: .03em; text-transform: uppercase; color: var(--muted); margin: 1rem 0 .25rem; }
p, ul, ol { margin: .4rem 0; }
.meta { color: var(--muted); font-size: .9rem; }
.banner { background: #fef3c7; border: 1px solid #f59e0b; padding: .5rem .75rem; border-radius: .4rem; font-weight: 600; margin: .5rem 0 1rem; }
.banner[data-status] { border-width: 2px; font-size: 1.05rem; }
.banner[data-tone="bad"] { background: #fee2e2; border-color: var(--error); color: #7f1d1d; }
.status { display: inline-block; padding: 0 .45rem; border-radius: .3rem; font-weight: 600; background: var(--card); border: 1px solid var(--line); }
.status-ok { color: var(--buy); } .status-failed { color: var(--sell); } .status-degraded, .status-flagged, .status-interrupted { color: var(--hold); }
.card h2 { margin-top: 0; }
.card { border: 1px solid var(--line); background: var(--card); border-radius: .6rem; padding: 1rem; margin: 1rem 0; }
.action { font-size: 2rem; font-weight: 800; letter-spacing: .02em; }
.action-BUY { color: var(--buy); } .action-SELL { color: var(--sell); } .action-HOLD { color: var(--hold); }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .5rem 1rem; margin: .75rem 0; }
.facts div { min-width: 0; } .facts dt { color: var(--muted); font-size: .8rem; } .facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.conviction { height: .5rem; background: var(--line); border-radius: .25rem; overflow: hidden; max-width: 16rem; }
.conviction span { display: block; height: 100%; background: var(--info); }
.chart { margin: 1rem 0; } .chart svg { width: 100%; height: auto; display: block; } .chart-narrow { display: none; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.wrap { overflow-wrap: anywhere; min-width: 6rem; }
.finding-error { color: var(--error); } .finding-warning { color: var(--warning); } .finding-info { color: var(--info); }
.desk { border-left: 3px solid var(--line); padding-left: .75rem; margin: 1rem 0; }
.desk-failed { border-left-color: var(--error); }
.desk .line { display: block; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card); padding: .5rem; border-radius: .3rem; }
.tool-call code { overflow-wrap: anywhere; }
a { color: #1d4ed8; overflow-wrap: anywhere; }
footer { margin-top: 2rem; color: var(--muted); font-size: .85rem; }
.claim-verified, .claim-derived { text-decoration: underline dotted #9ca3af; text-underline-offset: .15em; }
.claim-unsourced { text-decoration: underline wavy #f59e0b; text-underline-offset: .15em; }
mark.claim-contradicted { background: #fee2e2; color: var(--error); font-weight: 700; padding: 0 .15rem; border-radius: .2rem; }
.claim-truth { color: var(--error); font-weight: 600; }
.claim-ref { font-size: .7em; line-height: 0; } .claim-ref a { text-decoration: none; color: var(--muted); }
.claim-note-contradicted { color: var(--error); } .claim-note-unsourced { color: var(--warning); }
@media (max-width: 40rem) { body { padding: .6rem; font-size: 14px; } .action { font-size: 1.6rem; }
  .card { padding: .6rem; } table { font-size: .8rem; } th, td { padding: .25rem; }
  th.number, td.number { white-space: normal; }
  table.stack thead { display: none; } table.stack, table.stack tbody, table.stack td { display: block; }
  table.stack tr { display: grid; grid-template-columns: repeat(auto-fill, minmax(7rem, 1fr)); gap: .2rem .75rem; padding: .4rem 0; border-bottom: 1px solid var(--line); }
  table.stack td { border: 0; padding: 0; text-align: left; min-width: 0; } table.stack td:first-child { font-weight: 600; }
  table.stack td.wrap { grid-column: 1 / -1; }
  table.stack td::before { content: attr(data-label); display: block; color: var(--muted); font-size: .75rem; font-weight: 400; }
  .chart-wide { display: none; } .chart-narrow { display: block; } }
@media print {
  body { padding: 0; font-size: 11pt; } main { max-width: none; }
  .card, .banner { background: none; } .card, figure, tr, h2, h3 { break-inside: avoid; } h2, h3 { break-after: avoid; }
  a { color: inherit; } a::after { content: " (" attr(href) ")"; font-size: .8em; color: var(--muted); }
}
`;
