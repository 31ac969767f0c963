import { Global, Module } from '@nestjs/common';
import { METRICS } from '@igw/kernel';
import { processMetrics } from './prom-metrics';

/** Provides the kernel's METRICS port (the process's one registry) to every module of the app. */
@Global()
@Module({
  providers: [{ provide: METRICS, useFactory: processMetrics }],
  exports: [METRICS],
})
export class MetricsModule {}
