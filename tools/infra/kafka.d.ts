// Types for tools/infra/kafka.js (plain CommonJS so Jest's untransformed globalSetup can load it).

export interface StartKafkaOptions {
  /** PLAINTEXT listener on 127.0.0.1; default 9092. */
  port?: number;
  /** KRaft controller listener on 127.0.0.1; default port + 1. */
  controllerPort?: number;
  /** log.dirs; formatted on first use only. Default <repo>/.infra/kafka/data. */
  dataDir?: string;
  /** Default <dirname(dataDir)>/server.properties. */
  configFile?: string;
  /** Broker stdout/stderr; default <dirname(dataDir)>/broker.log. */
  logFile?: string;
  /** Survive the parent process (infra:up). Attached brokers are killed when the parent exits. */
  detached?: boolean;
  /** How long to wait for the broker to answer; default 60 s. */
  timeoutMs?: number;
}

export interface KafkaBroker {
  /** `127.0.0.1:<port>` */
  brokers: string;
  pid: number;
  port: number;
  controllerPort: number;
  dataDir: string;
  logFile: string;
  /** Milliseconds from spawning the JVM until a client could describe the cluster. */
  startMs: number;
  /** SIGTERM, SIGKILL after 30 s; resolves once the JVM has exited. */
  stop(): Promise<void>;
}

export const LIB_DIR: string;
export const REPO_ROOT: string;
export function ensureKafkaLibs(): Promise<string>;
export function startKafka(options?: StartKafkaOptions): Promise<KafkaBroker>;
export function stopKafkaPid(pid: number, timeoutMs?: number): Promise<void>;
export function isKafkaReachable(brokers: string | string[], timeoutMs?: number): Promise<boolean>;
export function isKafkaProcess(pid: number): boolean;
/** Drops Node's TimeoutNegativeWarning caused by kafkajs 2.2.4 on Node >= 23 (CLIs and Jest only). */
export function silenceKafkajsTimerWarning(): void;
