import { join } from 'node:path';
import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { BaseConfig, IntSetting, ServiceUrlSetting } from '@igw/config';
import type { CallRetention } from '@igw/kernel';
import { KeyEncryption, resolveKek } from '@igw/runtime';
import type { HeaderSealer } from './application/mcp-header-sealing';

/**
 * Settings of the decision proxy: the services it reads (distributed mode), where an older
 * version's decision journal may have been left, the order of authentication levels for step_up,
 * and the MCP upstreams' KEK and private-address escape hatch.
 */
export class DecisionProxyConfig extends BaseConfig {
  @ServiceUrlSetting('POLICY_REGISTRY_URL')
  POLICY_REGISTRY_URL?: string;

  @ServiceUrlSetting('APPROVALS_URL')
  APPROVALS_URL?: string;

  /** The MCP proxy's legacy path (tools/call without a mandate) is evaluated there (DESIGN 6.13). */
  @ServiceUrlSetting('INTENT_EVALUATOR_URL')
  INTENT_EVALUATOR_URL?: string;

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

  /**
   * Seals the headers registered MCP upstreams get (DESIGN 6.13): 32 bytes, base64 / base64url or
   * hex, shared by every replica; required in distributed mode (embedded mode generates one under
   * DATA_DIR/keys). Never logged.
   */
  @ValidateIf((c: DecisionProxyConfig) => c.GATEWAY_MODE === 'distributed' || c.MCP_UPSTREAMS_KEK !== undefined)
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, { message: 'MCP_UPSTREAMS_KEK must be 32 bytes as base64 (44 chars) or hex (64 chars)' })
  // Applied bottom-up: a missing KEK says so before any format message.
  @IsString({ message: 'MCP_UPSTREAMS_KEK must be set in distributed mode: 32 random bytes as base64 or hex (e.g. `openssl rand -base64 32`)' })
  MCP_UPSTREAMS_KEK?: string;

  /** Dev and tests only: MCP upstreams on private, loopback and link-local addresses too. */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'MCP_UPSTREAMS_ALLOW_PRIVATE must be "true" or "false"' })
  MCP_UPSTREAMS_ALLOW_PRIVATE?: string;

  // The evaluator's retention settings, read here too: the mandate path keeps its decided calls
  // (action, context) for the same window and under the same cap (DESIGN 6.16).
  @IntSetting('CALL_RETENTION_DAYS', 0, 366)
  CALL_RETENTION_DAYS: number = 7;

  @IntSetting('CALL_RETENTION_MAX_BYTES', 1024, 1048576)
  CALL_RETENTION_MAX_BYTES: number = 65536;

  @IntSetting('CALL_PURGE_INTERVAL_MINUTES', 0, 1440)
  CALL_PURGE_INTERVAL_MINUTES: number = 60;

  /**
   * Milliseconds one what-if replay of a card (`POST /v1/replays` with `kind: "card"`, DESIGN
   * 6.16) may run; past it the answer is 503 `replay_deadline` with how many calls were replayed.
   */
  @IntSetting('REPLAY_DEADLINE_MS', 100, 120000)
  REPLAY_DEADLINE_MS: number = 10000;
}

export function acrLevelsOf(config: Pick<DecisionProxyConfig, 'MANDATE_ACR_LEVELS'>): string[] | undefined {
  return config.MANDATE_ACR_LEVELS ? config.MANDATE_ACR_LEVELS.split(',') : undefined;
}

/** The module options that come from configuration: built here once for the embedded and the service root. */
export function decisionProxySettings(config: DecisionProxyConfig): {
  legacyJournalDir: string;
  acrLevels?: string[];
  headerSealer: HeaderSealer;
  allowPrivateUpstreams: boolean;
  callRetention: CallRetention;
  callPurgeIntervalMs: number;
  replayDeadlineMs: number;
} {
  const acrLevels = acrLevelsOf(config);
  return {
    legacyJournalDir: config.DECISION_JOURNAL_DIR ?? join(config.DATA_DIR, 'decision-journal'),
    headerSealer: new KeyEncryption(resolveKek('MCP_UPSTREAMS_KEK', config.MCP_UPSTREAMS_KEK, config, 'mcp-upstreams-kek')),
    allowPrivateUpstreams: config.MCP_UPSTREAMS_ALLOW_PRIVATE === 'true',
    callRetention: { days: config.CALL_RETENTION_DAYS, maxBytes: config.CALL_RETENTION_MAX_BYTES },
    callPurgeIntervalMs: config.CALL_PURGE_INTERVAL_MINUTES * 60_000,
    replayDeadlineMs: config.REPLAY_DEADLINE_MS,
    ...(acrLevels ? { acrLevels } : {}),
  };
}
