import { describeFaults, startFaultableSystem } from '@igw/testing';

// A steady stream of decisions and evaluations while PostgreSQL, Redis and Kafka are taken away
// in turn and the deciding services are killed (issue 11). Limits high enough that the stream is
// never rate limited: a 429 would hide what the test looks for.
describeFaults(() => startFaultableSystem({ env: { RATE_LIMIT_RPS: '10000', RATE_LIMIT_BURST: '20000' } }));
