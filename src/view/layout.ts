import { escapeHtml, pageHead } from '../report/escape.js';
import { evaluationStyle } from '../report/evaluation-html.js';
import { reportStyle } from '../report/html-style.js';
import { linkFrom, sitePaths } from './links.js';

/**
 * The frame of every page of the view: report.html's head (its CSP: nothing loads, no
 * script), its stylesheet, and one navigation bar whose links are relative to the page.
 * A page saved by another command (a run's, a portfolio's or a watch cycle's report) gets
 * the same bar put in, and is otherwise served as it was written.
 */

export interface SiteContext {
  /** `view --demo`: the demo's runs and evaluation, labelled DEMO on every page. */
  demo: boolean;
  /** The server's pages have the filter form and the compute link; the bundle's are static. */
  live: boolean;
}

const navItems: Array<[label: string, path: string]> = [
  ['Runs', sitePaths.runs()],
  ['Track record', sitePaths.trackRecord],
  ['Evaluations', sitePaths.evaluations],
  ['Ledger', sitePaths.ledger],
  ['Portfolios', sitePaths.portfolios],
  ['Watch', sitePaths.watch],
];

export const demoSiteBanner = 'DEMO — the demo’s runs and its offline evaluation: synthetic data, not real results';

export const siteStyle = `${evaluationStyle}
code.nowrap { white-space: nowrap; }
.pager { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin: .75rem 0; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .75rem 0; }
form.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
form.filters input, form.filters select, form.filters button { font: inherit; font-size: .9rem; padding: .2rem .4rem; }
`;

export function navHtml(path: string, context: SiteContext): string {
  const links = navItems.map(([label, target]) => {
    const current = target === path || (target === sitePaths.runs() && path.startsWith('runs/page-'));
    return `<a href="${linkFrom(path, target)}"${current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>`;
  });
  const demo = context.demo ? `\n<p class="banner" data-demo="">${escapeHtml(demoSiteBanner)}</p>` : '';
  return `<nav class="site" aria-label="autohedge">${links.join('\n')}</nav>${demo}`;
}

/** A page of the site around its body (already HTML). */
export function sitePage(path: string, title: string, body: string, context: SiteContext): string {
  return [
    ...pageHead(context.demo ? `DEMO ${title}` : title, reportStyle + siteStyle),
    '<body>',
    '<main>',
    navHtml(path, context),
    body,
    '<footer><p>autohedge view: read-only. Not investment advice.</p></footer>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A saved page (report.html, a portfolio's or a watch cycle's) with the navigation bar put in. */
export function withNavigation(html: string, path: string, context: SiteContext): string {
  const style = `<style>${siteStyle}</style>`;
  const withStyle = html.includes('</head>') ? html.replace('</head>', () => `${style}\n</head>`) : html;
  const nav = navHtml(path, context);
  if (withStyle.includes('<main>')) return withStyle.replace('<main>', () => `<main>\n${nav}`);
  return withStyle.replace(/<body[^>]*>/, (body) => `${body}\n${nav}`);
}
