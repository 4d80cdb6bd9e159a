import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_DIR, generatedFiles, generateGrpcTypes } from './generate-types';

describe('the committed gRPC types', () => {
  let fresh: string;
  beforeAll(() => {
    fresh = mkdtempSync(join(tmpdir(), 'grpc-types-'));
    generateGrpcTypes(fresh);
  });
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('are exactly what the .proto files generate (run `npm run generate:grpc` after changing them)', () => {
    expect(generatedFiles(GENERATED_DIR)).toEqual(generatedFiles(fresh));
    for (const file of generatedFiles(fresh)) {
      expect({ file, text: readFileSync(join(GENERATED_DIR, file), 'utf8') }).toEqual({ file, text: readFileSync(join(fresh, file), 'utf8') });
    }
  });
});
