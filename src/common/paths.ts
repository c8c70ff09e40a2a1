// Config dir (profiles, tokens) and data dir (journal, simulator state, caches). FSAPI_CONFIG_DIR and
// FSAPI_DATA_DIR win; otherwise the platform's user dirs, honouring HOME and XDG_* (env-paths does that).
import envPaths from 'env-paths';
import type { Paths } from '../run-types.js';

export function resolvePaths(env: Readonly<Record<string, string | undefined>>): Paths {
  const platform = envPaths('fsapi', { suffix: '' });
  return {
    configDir: env.FSAPI_CONFIG_DIR || platform.config,
    dataDir: env.FSAPI_DATA_DIR || platform.data,
  };
}
