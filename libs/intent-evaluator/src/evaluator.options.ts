import { StartupError } from '@igw/runtime';
import { JoseGrantService } from './adapters/jose/jose-grant.service';
import { loadOrCreateEmbeddedGrantKey, parseGrantKeySetting } from './adapters/keys/grant-key.store';
import { classificationProviders, type EvaluatorConfig } from './evaluator.config';
import type { IntentEvaluatorModuleOptions } from './intent-evaluator.module';

export type EvaluatorSettings = Pick<
  IntentEvaluatorModuleOptions,
  'grantKey' | 'classification' | 'callRetention' | 'callPurgeIntervalMs' | 'replayDeadlineMs'
>;

/** The module options that come from configuration: built here once for the embedded and the service root. */
export function evaluatorSettings(config: EvaluatorConfig): EvaluatorSettings {
  return {
    grantKey: grantKeyOf(config),
    classification: classificationProviders(config),
    callRetention: { days: config.CALL_RETENTION_DAYS, maxBytes: config.CALL_RETENTION_MAX_BYTES },
    callPurgeIntervalMs: config.CALL_PURGE_INTERVAL_MINUTES * 60_000,
    replayDeadlineMs: config.REPLAY_DEADLINE_MS,
  };
}

/**
 * Distributed mode requires GRANT_SIGNING_KEY (every replica signs with it); embedded mode uses
 * it when set (several embedded processes verifying each other's grants), else one under DATA_DIR.
 */
function grantKeyOf(config: EvaluatorConfig): IntentEvaluatorModuleOptions['grantKey'] {
  const distributed = config.GATEWAY_MODE === 'distributed';
  if (distributed && !config.GRANT_SIGNING_KEY) {
    throw new StartupError(
      'GRANT_SIGNING_KEY must be set in distributed mode (an Ed25519 private key: PKCS#8 PEM or JWK JSON, shared by every evaluator replica)',
    );
  }
  try {
    const grantKey = config.GRANT_SIGNING_KEY ? parseGrantKeySetting(config.GRANT_SIGNING_KEY) : loadOrCreateEmbeddedGrantKey(config.DATA_DIR);
    new JoseGrantService(grantKey);
    return grantKey;
  } catch (err) {
    throw new StartupError(distributed ? `GRANT_SIGNING_KEY: ${(err as Error).message}` : (err as Error).message);
  }
}
