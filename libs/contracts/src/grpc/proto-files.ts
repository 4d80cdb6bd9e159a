import { join } from 'node:path';

/**
 * Where the request contract lives and how it is read. The same options load the `.proto` files at
 * run time (`@grpc/proto-loader`, under `@nestjs/microservices`) and generate their TypeScript
 * types (`proto-loader-gen-types`), so the types describe exactly the objects a call hands over.
 */
export const PROTO_ROOT = join(__dirname, '..', '..', 'proto');

export const PROTO_PACKAGE = 'tailsync.v1';

export const PROTO_FILES = {
  tailSync: 'tailsync/v1/tail_sync.proto',
  webhookDispatcher: 'tailsync/v1/webhook_dispatcher.proto',
} as const;

export const PROTO_LOADER_OPTIONS = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/** `proto-loader-gen-types` arguments matching PROTO_LOADER_OPTIONS, writing into `outDir`. */
export function typeGeneratorArgs(outDir: string): string[] {
  return [
    '--longs=Number', '--enums=String', '--defaults', '--oneofs', '--includeComments', '--grpcLib=@grpc/grpc-js',
    `--includeDirs=${PROTO_ROOT}`, `--outDir=${outDir}`, ...Object.values(PROTO_FILES),
  ];
}
