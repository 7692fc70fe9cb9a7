import { demoCassettePath } from '../paths.js';
import type { RunRequest } from '../run/request.js';
import { resolveSearchChoice } from '../search/choice.js';
import type { CliDeps } from './deps.js';
import { warningWriter, type CliIo } from './io.js';
import { buildServices, type ServiceConfig, type Session } from './services.js';

/**
 * The clients a request asks for: its server, cassette, MCP config and search, built
 * once for every request of a command that shares them (the tickers of one `analyze`,
 * the jobs of one worker). `needsModel: false` for commands that only read market data.
 */
export function serviceConfigOf(
  request: Pick<RunRequest, 'baseUrl' | 'cassette' | 'mcpConfig' | 'search' | 'refresh'>,
  io: CliIo,
  argv: string[],
): ServiceConfig {
  const cassette = request.cassette;
  return {
    env: io.env,
    cwd: io.cwd,
    baseUrl: request.baseUrl,
    record: cassette?.mode === 'record' ? cassette.path : undefined,
    replay: cassette?.mode === 'demo' ? demoCassettePath() : cassette?.mode === 'replay' ? cassette.path : undefined,
    demo: cassette?.mode === 'demo',
    refresh: request.refresh,
    argv,
    needsModel: true,
    search: resolveSearchChoice(request.search, io.env),
    warn: warningWriter(io),
    mcpConfig: request.mcpConfig,
  };
}

export function openSession(
  request: Pick<RunRequest, 'baseUrl' | 'cassette' | 'mcpConfig' | 'search' | 'refresh'>,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
  /** What a command adds that is not the request's: --rpm / --tpm, the worker's shared pacers. */
  extra: Pick<ServiceConfig, 'ceilings' | 'pacers'> = {},
): Promise<Session> {
  return buildServices({ ...serviceConfigOf(request, io, argv), ...extra }, deps);
}
