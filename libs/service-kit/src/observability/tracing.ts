import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { IncomingMessage } from 'node:http';
import { isProbePath } from './request-path';
import { tracingRequested } from './tracing-requested';

/** The libraries a process has its calls traced in (the maintained OpenTelemetry instrumentations). */
export type TracedLibrary = 'http' | 'fastify' | 'grpc' | 'pg' | 'kafkajs';

let sdk: NodeSDK | undefined;

/**
 * Starts OpenTelemetry when the standard variables ask for it (tracingRequested): spans exported
 * over OTLP as `OTEL_EXPORTER_OTLP_*` say, sampled as `OTEL_TRACES_SAMPLER` says, W3C trace
 * context in and out. Off, it loads nothing: the SDK and the instrumentations are required only
 * here. Must run before the traced libraries are first required (each app's `tracing.ts`, the
 * first import of its main.ts), as the instrumentations patch them as they load.
 */
export function startTracing(service: string, libraries: TracedLibrary[]): void {
  if (sdk || !tracingRequested(process.env)) return;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const instrumentations: Record<TracedLibrary, () => Instrumentation> = {
    http: () => {
      const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
      // Probes and scrapes every few seconds would bury the requests an operator looks for.
      return new HttpInstrumentation({ ignoreIncomingRequestHook: (req: IncomingMessage) => isProbePath(req.url ?? '') });
    },
    fastify: () => {
      const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
      return new FastifyOtelInstrumentation({ registerOnInitialization: true, ignorePaths: (route) => isProbePath(route.url) });
    },
    grpc: () => new (require('@opentelemetry/instrumentation-grpc') as typeof import('@opentelemetry/instrumentation-grpc')).GrpcInstrumentation(),
    // Only statements of a traced request or event: the loops that poll every few ms would start a trace each.
    pg: () => new (require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg')).PgInstrumentation({ requireParentSpan: true }),
    kafkajs: () => new (require('@opentelemetry/instrumentation-kafkajs') as typeof import('@opentelemetry/instrumentation-kafkajs')).KafkaJsInstrumentation(),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() || service,
    instrumentations: libraries.map((library) => instrumentations[library]()),
  });
  sdk.start();
}

/** Exports the spans still buffered (on shutdown). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown().catch(() => undefined);
}
