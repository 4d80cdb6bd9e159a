import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/** On a graceful stop, the spans still buffered are exported before the process ends. */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}
