import { Controller, Get, Header } from '@nestjs/common';
import { metricsRegistry } from '../observability/metrics';
import { Public } from './public.decorator';

/** `GET /metrics` of the management server: the process-wide registry, for Prometheus. */
@Public()
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
