// A stand-in internet for the demo generator and for tests: replaces
// globalThis.fetch with a wrapper that answers requests to chosen hosts from
// in-process handlers and hands everything else to the fetch it replaced.
//
// Why a fetch wrapper and not loopback servers: autohedge's recorder
// (@mswjs/interceptors' FetchInterceptor) keeps the globalThis.fetch it finds when
// recording starts as the "real" fetch it passes requests through to. With this
// wrapper installed first, every request the run makes goes through the recorder to
// here, and the cassette holds the real services' URLs (api.openai.com,
// api.exa.ai, query2.finance.yahoo.com), so it replays with default settings.
/* global Request */

/**
 * @param {Array<{ hosts: string[], handle: (request: Request) => Promise<Response> }>} routes
 * @returns {{ restore(): void }}
 */
export function installSyntheticNetwork(routes) {
  const passThrough = globalThis.fetch;
  const syntheticFetch = async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const route = routes.find((candidate) => candidate.hosts.includes(new URL(href).hostname));
    // Only a request that is answered here is read; anything else goes on untouched.
    if (!route) return passThrough(input, init);
    return route.handle(new Request(input, init));
  };
  globalThis.fetch = syntheticFetch;
  return {
    restore() {
      if (globalThis.fetch === syntheticFetch) globalThis.fetch = passThrough;
    },
  };
}
