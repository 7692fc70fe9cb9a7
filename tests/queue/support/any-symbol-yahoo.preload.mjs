// Test-only preload for a child `node --import <this file> bin/autohedge.js worker ...`:
// answers Yahoo Finance's hosts with the synthetic ACME market of scripts/demo for
// whichever symbol is asked (renamed), so a worker can analyse a dozen tickers offline;
// the symbol NOPE is unknown, as on the real service. Everything else (the loopback
// model server, Redis) goes through untouched. Product code has no hook for this.
/* global Request, Response */
import { createYahooHandler, yahooHosts } from '../../../scripts/demo/market.mjs';
import { installSyntheticNetwork } from '../../../scripts/demo/network.mjs';

const acme = createYahooHandler({ cookie: 'queue-test-cookie', crumb: 'queue-test-crumb' });
const routePattern = /^(\/v8\/finance\/chart\/|\/v10\/finance\/quoteSummary\/)([^/?]+)/;

async function anySymbol(request) {
  const url = new URL(request.url);
  const inPath = routePattern.exec(url.pathname);
  const symbol = inPath ? decodeURIComponent(inPath[2]) : url.searchParams.get('symbols');
  if (!symbol || symbol === 'NOPE' || symbol === 'ACME') return acme(request);
  if (inPath) url.pathname = url.pathname.replace(routePattern, `$1ACME`);
  else url.searchParams.set('symbols', 'ACME');
  const answer = await acme(new Request(url, request));
  const body = (await answer.text()).replaceAll('ACME', symbol);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

installSyntheticNetwork([{ hosts: yahooHosts, handle: anySymbol }]);
