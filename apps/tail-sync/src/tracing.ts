// main.ts's first import: the instrumentations must be in place before the libraries load.
import { startTracing } from '@tailsync/service-kit/tracing';

startTracing('tail-sync', ['http', 'grpc', 'pg']);
