// The fault suite (`npm run test:faults`, tools/test/faults.ts) runs in two Jest processes side by
// side, named by TAILSYNC_FAULTS_LANE: `stack`, the files that start the suite's stack (three
// brokers, two copies of each app, on the suite's fixed ports: one at a time), and `alone`, the
// files that start no apps (each on ports of its own), run beside them. Without a lane, every file.
const ALONE = ['grpc-reconnect-cut', 'postgres-pool-cut', 'postgres-replication'];
const lanes = {
  stack: { testPathIgnorePatterns: [`/src/(${ALONE.join('|')})\\.faults\\.ts$`] },
  alone: { testMatch: ALONE.map((name) => `<rootDir>/src/${name}.faults.ts`) },
};
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'faults',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.faults.ts'],
  ...lanes[process.env.TAILSYNC_FAULTS_LANE],
  // A fault is held 30 s, then the invariants may wait for a slow recovery on a busy machine.
  testTimeout: 420_000,
  // kafkajs clients of the checks keep timers after disconnecting; the stack is down by then.
  forceExit: true,
};
