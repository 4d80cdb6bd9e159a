/** `npm run docker:base-images`: builds the local stand-ins and prints the settings naming them. */
import { buildBaseImages } from './base-images';

buildBaseImages((line) => process.stderr.write(`[base-images] ${line}\n`))
  .then((images) => {
    for (const [name, tag] of Object.entries(images)) process.stdout.write(`${name}=${tag}\n`);
  })
  .catch((error: unknown) => {
    process.stderr.write(`[base-images] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
