'use strict';
// Preloaded (`-r`) into apps started by `npm run bench -- --profile` next to `--cpu-prof`.
// V8 writes the CPU profile only when the process exits normally, but Nest's shutdown hook ends
// the process by re-raising the signal it caught. While this listener exists the re-raised signal
// does not kill the process; the second one (Nest done) exits normally, so the profile is written.
let seen = 0;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    seen += 1;
    if (seen > 1) process.exit(0);
    setTimeout(() => process.exit(0), 8000).unref();
  });
}
