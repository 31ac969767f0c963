/** The envelope every event travels in, on the in-process bus and on Kafka alike (DESIGN 5). */
export interface EventEnvelope<T = unknown> {
  /** Unique per event; consumers deduplicate on it. */
  id: string;
  /** Topic name, `<context>.<entity>.<event>.v<N>`, one of `Topics`. */
  type: string;
  org_id: string;
  /** ISO 8601. */
  occurred_at: string;
  schema_version: number;
  data: T;
}
