/**
 * A run of its own for the supervisor's spec: starts the test server in <dir>, prints
 * `started <pid>`, then idles until killed (`idle`) or exits without stopping it (`exit`).
 */
import { startSupervisedProcess } from './supervised-process';
import { testServerSpec } from './test-server.test-support';

const [dir, then] = process.argv.slice(2);

startSupervisedProcess(testServerSpec(dir)).then((server) => {
  console.log(`started ${server.pid}`);
  if (then === 'exit') process.exit(0);
  setInterval(() => undefined, 60_000);
});
