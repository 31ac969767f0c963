/** The lifecycle of a server owned by one test (own port and data), so a test can stop it under a running app. */
export interface OwnedInstance {
  port: number;
  logFile: string;
  /** Stops the server; its data survives. */
  stop(): Promise<void>;
  /** Starts again on the same port and data. */
  start(): Promise<void>;
  /** Stops and deletes everything. */
  destroy(): Promise<void>;
}
