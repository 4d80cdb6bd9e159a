import { defineConfig } from 'tsup';

// The npm package: CommonJS (.js) and ES modules (.mjs), each with its types, one entry per import
// path. Frameworks stay outside the bundle (optional peers); the core needs only node:crypto.
export default defineConfig({
  entry: { index: 'src/index.ts', express: 'src/express.ts', fastify: 'src/fastify.ts', nest: 'src/nest.ts' },
  format: ['cjs', 'esm'],
  // One chunk per shared module in both formats: the entries then share one RemoteKeySet class,
  // so the helpers recognise a key set made from the main entry (under require() too).
  splitting: true,
  dts: true,
  clean: true,
  platform: 'node',
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  external: ['@nestjs/common', 'express', 'fastify'],
});
