// main.ts's first import: the instrumentations must be in place before the libraries load.
import { startTracing } from '@tailsync/service-kit/tracing';

startTracing('webhook-dispatcher', ['http', 'grpc', 'pg', 'kafkajs']);
