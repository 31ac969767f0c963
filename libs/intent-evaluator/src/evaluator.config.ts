import type { Provider } from '@nestjs/common';
import { IsNumber, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { BaseConfig, IntSetting, ServiceUrlSetting } from '@igw/config';
import { OpenAiChatClient, OpenAiEmbeddingsClient } from './adapters/openai';
import {
  CHAT_MODEL,
  CLASSIFICATION_CASCADE_OPTIONS,
  DEFAULT_CERTAIN_AT,
  EMBEDDING_MODEL,
  type ClassificationCascadeOverrides,
} from './application/classification';

const URL_RULE = /^https?:\/\/[^\s/]+(\/\S*)?$/;

/**
 * Settings of the intent evaluator. The classification cascade's `embedding` layer runs only
 * with EMBEDDINGS_URL, its `llm` layer only with LLM_URL (OpenAI-compatible APIs, e.g.
 * `https://api.openai.com/v1`); without them classification is lexical only.
 */
export class EvaluatorConfig extends BaseConfig {
  /**
   * The evaluator's Ed25519 grant-signing key (PKCS#8 PEM or private JWK JSON), shared by every
   * replica. Required by the distributed app (it checks); embedded mode generates one when unset.
   */
  @IsOptional()
  @IsString()
  GRANT_SIGNING_KEY?: string;

  /**
   * The bar for a certain match by the lexical layer's confidence (DESIGN 6.15): at or above it a
   * match is allowed without a human; below it the call waits for an approval (`uncertain_match`).
   * The default was calibrated on the labelled dev sets (decision 0018): lower it only after
   * measuring wrong allows on your own traffic (`npm run eval:intents`). Bindings and examples are
   * certain whatever this is.
   */
  @IsNumber({}, { message: 'CLASSIFICATION_CERTAIN_AT must be a number from 0.5 to 1' })
  @Min(0.5, { message: 'CLASSIFICATION_CERTAIN_AT must be a number from 0.5 to 1' })
  @Max(1, { message: 'CLASSIFICATION_CERTAIN_AT must be a number from 0.5 to 1' })
  CLASSIFICATION_CERTAIN_AT: number = DEFAULT_CERTAIN_AT;

  /** Where the policy-registry service answers (distributed); several comma-separated URLs are balanced. */
  @ServiceUrlSetting('POLICY_REGISTRY_URL')
  POLICY_REGISTRY_URL?: string;

  /** Where the approvals service answers (distributed); several comma-separated URLs are balanced. */
  @ServiceUrlSetting('APPROVALS_URL')
  APPROVALS_URL?: string;

  /** Where the decision-proxy service answers (distributed): `POST /v1/replays` with `kind: "card"` is its replay. Unset: `card` is 400 `unsupported_kind`. */
  @ServiceUrlSetting('DECISION_PROXY_URL')
  DECISION_PROXY_URL?: string;

  /** Base URL of an OpenAI-compatible API serving `POST /embeddings`. Unset: no embedding layer. */
  @IsOptional()
  @Matches(URL_RULE, { message: 'EMBEDDINGS_URL must be an http(s):// base URL such as https://api.openai.com/v1' })
  EMBEDDINGS_URL?: string;

  /** Model named in requests to EMBEDDINGS_URL. */
  @IsString()
  @MinLength(1, { message: 'EMBEDDINGS_MODEL must not be empty' })
  EMBEDDINGS_MODEL: string = 'text-embedding-3-small';

  /** Sent as `Authorization: Bearer …` to EMBEDDINGS_URL; never logged. */
  @IsOptional()
  @IsString()
  EMBEDDINGS_API_KEY?: string;

  /** Timeout of one embeddings request; past it the lexical layer decides alone. */
  @IntSetting('EMBEDDINGS_TIMEOUT_MS', 50, 60000)
  EMBEDDINGS_TIMEOUT_MS: number = 2000;

  /** Base URL of an OpenAI-compatible API serving `POST /chat/completions`. Unset: no llm layer. */
  @IsOptional()
  @Matches(URL_RULE, { message: 'LLM_URL must be an http(s):// base URL such as https://api.openai.com/v1' })
  LLM_URL?: string;

  /** Model named in requests to LLM_URL. */
  @IsString()
  @MinLength(1, { message: 'LLM_MODEL must not be empty' })
  LLM_MODEL: string = 'gpt-4o-mini';

  /** Sent as `Authorization: Bearer …` to LLM_URL; never logged. */
  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  /** Timeout of one LLM request; past it the call is not classified by the LLM. */
  @IntSetting('LLM_TIMEOUT_MS', 50, 60000)
  LLM_TIMEOUT_MS: number = 3000;

  /**
   * Days a decided call is kept: an evaluation's tool call and conversation context, a mandate-path
   * decision's action and context. For `include=call` on history and the decision list, teaching
   * and replay (DESIGN 6.16); 0 keeps none and clears what was kept.
   */
  @IntSetting('CALL_RETENTION_DAYS', 0, 366)
  CALL_RETENTION_DAYS: number = 7;

  /** Largest call kept, in UTF-8 bytes of its JSON; a larger call's evaluation or decision is recorded without it. */
  @IntSetting('CALL_RETENTION_MAX_BYTES', 1024, 1048576)
  CALL_RETENTION_MAX_BYTES: number = 65536;

  /**
   * Minutes between purges of calls past the window in this process (and one at start); 0 leaves
   * it to the Helm chart's CronJob (`node dist/apps/purge-calls/src/main.js`).
   */
  @IntSetting('CALL_PURGE_INTERVAL_MINUTES', 0, 1440)
  CALL_PURGE_INTERVAL_MINUTES: number = 60;

  /**
   * Milliseconds one what-if replay (`POST /v1/replays`, DESIGN 6.16) may run; past it the answer
   * is 503 `replay_deadline` with how many calls were replayed, never a partial result.
   */
  @IntSetting('REPLAY_DEADLINE_MS', 100, 120000)
  REPLAY_DEADLINE_MS: number = 10000;
}

/** The settings `classificationProviders` reads (any config object carrying them will do). */
export type ClassificationSettings = Pick<
  EvaluatorConfig,
  | 'CLASSIFICATION_CERTAIN_AT'
  | 'EMBEDDINGS_URL'
  | 'EMBEDDINGS_MODEL'
  | 'EMBEDDINGS_API_KEY'
  | 'EMBEDDINGS_TIMEOUT_MS'
  | 'LLM_URL'
  | 'LLM_MODEL'
  | 'LLM_API_KEY'
  | 'LLM_TIMEOUT_MS'
>;

/**
 * Nest providers for the classification cascade (the module provides `ClassificationCascade`
 * itself): its options (timeouts from the settings, plus `overrides`), and EMBEDDING_MODEL /
 * CHAT_MODEL only when EMBEDDINGS_URL / LLM_URL is set. The clients close their connection
 * pools on module destroy.
 */
export function classificationProviders(config: Partial<ClassificationSettings>, overrides: ClassificationCascadeOverrides = {}): Provider[] {
  const embeddingsTimeoutMs = config.EMBEDDINGS_TIMEOUT_MS ?? 2000;
  const llmTimeoutMs = config.LLM_TIMEOUT_MS ?? 3000;
  const providers: Provider[] = [
    {
      provide: CLASSIFICATION_CASCADE_OPTIONS,
      useValue: {
        embeddingTimeoutMs: embeddingsTimeoutMs,
        llmTimeoutMs,
        ...(config.CLASSIFICATION_CERTAIN_AT !== undefined ? { certainAt: config.CLASSIFICATION_CERTAIN_AT } : {}),
        ...overrides,
      } satisfies ClassificationCascadeOverrides,
    },
  ];
  if (config.EMBEDDINGS_URL) {
    const options = {
      baseUrl: config.EMBEDDINGS_URL,
      model: config.EMBEDDINGS_MODEL ?? 'text-embedding-3-small',
      apiKey: config.EMBEDDINGS_API_KEY,
      timeoutMs: embeddingsTimeoutMs,
    };
    providers.push({ provide: EMBEDDING_MODEL, useFactory: () => new OpenAiEmbeddingsClient(options) });
  }
  if (config.LLM_URL) {
    const options = { baseUrl: config.LLM_URL, model: config.LLM_MODEL ?? 'gpt-4o-mini', apiKey: config.LLM_API_KEY, timeoutMs: llmTimeoutMs };
    providers.push({ provide: CHAT_MODEL, useFactory: () => new OpenAiChatClient(options) });
  }
  return providers;
}
