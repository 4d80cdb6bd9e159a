/**
 * `npm run generate:grpc`: rewrites libs/contracts/src/grpc/generated/ from the `.proto` files in
 * libs/contracts/proto/ (the request contract). Commit the result with the `.proto` change.
 */
import { rmSync } from 'node:fs';
import { GENERATED_DIR, generateGrpcTypes } from '@tailsync/contracts';

rmSync(GENERATED_DIR, { recursive: true, force: true });
generateGrpcTypes(GENERATED_DIR);
process.stdout.write(`wrote ${GENERATED_DIR}\n`);
