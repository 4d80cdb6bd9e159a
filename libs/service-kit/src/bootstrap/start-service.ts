import { Type } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { ensureTopics, TopicSpec } from '../kafka/ensure-topics';
import { GrpcEndpoint, grpcServerOptions } from '../grpc/grpc-server';
import type { KafkaConnection } from '../kafka/kafka-connection';
import type { TopicReplication } from '../kafka/topic-replication';
import { assertGrpcJsPatched } from '../grpc/grpc-js-patches';
import { assertKafkajsPatched } from '../kafka/kafkajs-patches';
import { requestIdOf } from '../observability/request-id';
import { addAccessLog } from '../logging/logging.module';
import { addRequestDurations } from '../observability/http-metrics';
import { addResponseHeaders, tagResponse } from './response-headers';
import { TrustProxy } from './trust-proxy';

type FrameworkErrorHandler = (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => void;

export interface ServiceStart {
  name: string;
  module: Type<unknown>;
  /** The broker and the topics the process consumes or produces, created before any consumer starts. */
  kafka?: { connection: KafkaConnection; topics: TopicSpec[]; replication?: Partial<TopicReplication> };
  httpPort: number;
  /** The address the HTTP and gRPC servers bind to (the HOST setting). */
  host: string;
  /** Set for the services the gateway calls. */
  grpc?: GrpcEndpoint;
  instanceId: string;
  /** Adds process-specific HTTP set-up (body parsing, OpenAPI) before the server listens. */
  configure?: (app: NestFastifyApplication) => void;
  /** Answers requests Fastify refuses before routing (a URL it cannot decode). */
  frameworkErrors?: FrameworkErrorHandler;
  /** The proxies whose X-Forwarded-For gives the client's address (default: none). */
  trustProxy?: TrustProxy;
}

/**
 * Starts one tailsync process: its topics, its HTTP side (health, metrics and, for the
 * gateway, the REST API) and, for services, its gRPC server. It refuses a kafkajs or grpc-js
 * without our patches.
 */
export async function startService(start: ServiceStart): Promise<NestFastifyApplication> {
  assertGrpcJsPatched();
  if (start.kafka) {
    assertKafkajsPatched();
    await ensureTopics(start.kafka.connection, start.kafka.topics, start.kafka.replication);
  }
  // A provider that cannot be built (a bad key, a bad connection string) is a start failure like
  // any other: thrown to the caller's one clear line, not logged by Nest with its stack and exited.
  const app = await NestFactory.create<NestFastifyApplication>(start.module, httpAdapter(start.frameworkErrors, start.trustProxy ?? false), {
    bufferLogs: true,
    autoFlushLogs: false,
    abortOnError: false,
    bodyParser: !start.configure,
  });
  app.useLogger(app.get(Logger));
  app.flushLogs();
  addResponseHeaders(app.getHttpAdapter().getInstance());
  addAccessLog(app.getHttpAdapter().getInstance());
  addRequestDurations(app.getHttpAdapter().getInstance());
  start.configure?.(app);
  app.enableShutdownHooks();
  if (start.grpc) {
    app.connectMicroservice(grpcServerOptions(start.grpc, start.host), { inheritAppConfig: true });
    // Nest's hooks first (migrations, consumers started): a hybrid app would serve gRPC before them.
    await app.init();
    await app.startAllMicroservices();
  }
  await app.listen(start.httpPort, start.host);
  app.get(Logger).log({ msg: `${start.name} listening`, host: start.host, port: start.httpPort, grpcPort: start.grpc?.port, instance: start.instanceId });
  return app;
}

/**
 * Fastify: a Nest route costs a fraction of its CPU on Express (docs/performance.md, "Performance choices").
 * Routing as Express did: case-insensitive paths, a trailing slash ignored. The request id is
 * the one the access log and problem answers carry.
 */
function httpAdapter(frameworkErrors: ServiceStart['frameworkErrors'], trustProxy: TrustProxy): FastifyAdapter {
  const onFrameworkError: FrameworkErrorHandler = (error, req, reply) => {
    tagResponse(req, reply);
    if (frameworkErrors) frameworkErrors(error, req, reply);
    else void reply.code(error.statusCode ?? 400).send({ statusCode: error.statusCode ?? 400, message: error.message });
  };
  return new FastifyAdapter({
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    genReqId: requestIdOf,
    frameworkErrors: onFrameworkError,
    // A hop count as proxy-addr counts it (Nest's adapter types take no number).
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
  });
}

/** Prints a start-up failure (e.g. a bad setting) as one clear line and exits non-zero. */
export function exitOnStartFailure(name: string) {
  return (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name} failed to start: ${message}\n`);
    process.exit(1);
  };
}
