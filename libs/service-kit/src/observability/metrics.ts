import { Public } from './public.decorator';
import { Controller, Get, Header } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** The process-wide Prometheus registry; apps add their own counters and histograms to it. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

@Public()
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
