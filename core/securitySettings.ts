import type { RemitConfig } from './config.js';
import { resolveJwtSecret } from './secret.js';
import type { SecuritySettings } from './context.js';

/** The security settings of a configuration, as the server and the CLI both run with them. */
export function securitySettings(config: RemitConfig): SecuritySettings {
  return {
    jwtSecret: resolveJwtSecret(config),
    tokenTtlSeconds: config.tokenTtlSeconds,
    bcryptCost: config.bcryptCost,
    hashing: config.hashing,
    publicLinks: { url: config.publicUrl, limits: config.publicLimits },
  };
}
