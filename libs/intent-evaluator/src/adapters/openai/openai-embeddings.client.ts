import type { EmbeddingModel, EmbedOptions } from '../../application/classification/embedding-model.port';
import { ModelEndpointError } from '../../application/classification/model-endpoint.error';
import { OpenAiEndpoint, type OpenAiEndpointOptions } from './openai-http';

export interface OpenAiEmbeddingsClientOptions extends OpenAiEndpointOptions {
  /** Inputs per request; a longer list is sent as several requests in parallel. */
  maxBatch?: number;
}

export const DEFAULT_EMBEDDINGS_TIMEOUT_MS = 2000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * EMBEDDING_MODEL over an OpenAI-compatible `POST {baseUrl}/embeddings` `{model, input}` →
 * `{data: [{embedding, index}]}` (vectors placed by `index`, every input accounted for).
 */
export class OpenAiEmbeddingsClient extends OpenAiEndpoint implements EmbeddingModel {
  private readonly maxBatch: number;

  constructor(options: OpenAiEmbeddingsClientOptions) {
    super(options, 'embeddings', DEFAULT_EMBEDDINGS_TIMEOUT_MS);
    this.maxBatch = options.maxBatch ?? 256;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const timeoutMs = this.deadline(options.timeoutMs);
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) batches.push(texts.slice(i, i + this.maxBatch));
    const results = await Promise.all(batches.map((input) => this.embedBatch(input, timeoutMs)));
    return results.flat();
  }

  private async embedBatch(input: string[], timeoutMs: number): Promise<number[][]> {
    const body = await this.http.postJson('/embeddings', { model: this.model, input }, timeoutMs, MAX_BODY_BYTES);
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length !== input.length)
      throw new ModelEndpointError('malformed_response', `embeddings answer does not hold ${input.length} embeddings`);
    const out: number[][] = new Array(input.length);
    let dimension = -1;
    for (const item of data as unknown[]) {
      const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= input.length || out[index] !== undefined) {
        throw new ModelEndpointError('malformed_response', 'embeddings answer has a missing or repeated index');
      }
      if (
        !Array.isArray(embedding) ||
        embedding.length === 0 ||
        (dimension !== -1 && embedding.length !== dimension) ||
        !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        throw new ModelEndpointError('malformed_response', 'embeddings answer holds something other than float vectors of one dimension');
      }
      dimension = embedding.length;
      out[index] = embedding as number[];
    }
    return out;
  }
}
