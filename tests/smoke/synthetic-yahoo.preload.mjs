// Test-only preload for a child `node --import <this file> bin/autohedge.js ...`:
// answers Yahoo Finance's hosts from the synthetic market in scripts/demo, and lets
// every other request (the loopback OpenAI and Exa stubs) through. Installed before
// autohedge starts, so its recorder treats this as the network and records the
// Yahoo exchanges at Yahoo's real URLs. Product code has no hook for this.
//
// The session cookie and crumb come from the environment so a test can check that
// those exact values never reach a file.
import { createYahooHandler, yahooHosts } from '../../scripts/demo/market.mjs';
import { installSyntheticNetwork } from '../../scripts/demo/network.mjs';

const cookie = process.env.YAHOO_STUB_COOKIE;
const crumb = process.env.YAHOO_STUB_CRUMB;
if (!cookie || !crumb) throw new Error('synthetic-yahoo.preload.mjs needs YAHOO_STUB_COOKIE and YAHOO_STUB_CRUMB');

installSyntheticNetwork([{ hosts: yahooHosts, handle: createYahooHandler({ cookie, crumb }) }]);
