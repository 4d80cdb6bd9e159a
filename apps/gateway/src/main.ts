import './tracing';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { exitOnStartFailure, loadConfig, parseTrustProxy, startService } from '@tailsync/service-kit';
import { appModule } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { configureHttp } from './http/configure-http';
import { sendProblem, toProblem } from './problems/interface/problem.filter';

async function main() {
  const config = loadConfig(GatewayConfig);
  const instanceId = config.INSTANCE_ID ?? randomUUID().slice(0, 8);
  const httpLogger = new Logger('http');
  await startService({
    name: 'gateway',
    module: appModule(config),
    httpPort: config.PORT,
    host: config.HOST,
    trustProxy: parseTrustProxy(config.TRUST_PROXY) ?? false,
    instanceId,
    configure: (app) => configureHttp(app, config),
    frameworkErrors: (error, req, reply) => sendProblem(req, reply, toProblem(error), config.PUBLIC_BASE_URL, httpLogger, error),
  });
}

main().catch(exitOnStartFailure('gateway'));
