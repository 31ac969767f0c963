import { join } from 'node:path';
import { IsOptional, IsString, Matches } from 'class-validator';
import { BaseConfig, ServiceUrlSetting } from '@igw/config';

/**
 * Settings of the decision proxy: the services it reads (distributed mode), where an older
 * version's decision journal may have been left, and the order of authentication levels for step_up.
 */
export class DecisionProxyConfig extends BaseConfig {
  @ServiceUrlSetting('POLICY_REGISTRY_URL')
  POLICY_REGISTRY_URL?: string;

  @ServiceUrlSetting('APPROVALS_URL')
  APPROVALS_URL?: string;

  /** The issuer's JWKS and revocations come from here; never from a URL named in a token. */
  @ServiceUrlSetting('MANDATE_ISSUER_URL')
  MANDATE_ISSUER_URL?: string;

  /**
   * Versions before 0.7 journaled decisions here (default DATA_DIR/decision-journal) before storing
   * them; what such a version left undrained is stored at start. Decisions are no longer journaled.
   */
  @IsOptional()
  @IsString()
  DECISION_JOURNAL_DIR?: string;

  /** step_up: authentication levels, weakest first (default pwd,otp,mfa,hwk). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_.:-]+(,[A-Za-z0-9_.:-]+)*$/, {
    message: 'MANDATE_ACR_LEVELS must be a comma-separated list of acr values, weakest first (e.g. pwd,otp,mfa,hwk)',
  })
  MANDATE_ACR_LEVELS?: string;
}

export function acrLevelsOf(config: Pick<DecisionProxyConfig, 'MANDATE_ACR_LEVELS'>): string[] | undefined {
  return config.MANDATE_ACR_LEVELS ? config.MANDATE_ACR_LEVELS.split(',') : undefined;
}

/** The module options that come from configuration: built here once for the embedded and the service root. */
export function decisionProxySettings(config: DecisionProxyConfig): { legacyJournalDir: string; acrLevels?: string[] } {
  const acrLevels = acrLevelsOf(config);
  return {
    legacyJournalDir: config.DECISION_JOURNAL_DIR ?? join(config.DATA_DIR, 'decision-journal'),
    ...(acrLevels ? { acrLevels } : {}),
  };
}
