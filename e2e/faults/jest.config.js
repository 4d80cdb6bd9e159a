// The fault suite (`npm run test:faults`, tools/test/faults.ts) runs in three Jest processes side
// by side, named by TAILSYNC_FAULTS_LANE. `stack` and `endpoint` each hold files that start a stack
// (three brokers, two copies of each app), one at a time, on ports the runner moves per lane:
// `stack` breaks brokers and partitions apps, `endpoint` puts PostgreSQL behind a proxy endpoint
// (idle sessions cut, a failover). `alone` holds the files that start no apps (each on ports of
// its own). Without a lane, every file.
const ALONE = ['grpc-reconnect-cut', 'postgres-pool-cut', 'postgres-replication'];
const ENDPOINT = ['postgres-idle-endpoint', 'postgres-failover'];
const only = (names) => ({ testMatch: names.map((name) => `<rootDir>/src/${name}.faults.ts`) });
const lanes = {
  stack: { testPathIgnorePatterns: [`/src/(${[...ALONE, ...ENDPOINT].join('|')})\\.faults\\.ts$`] },
  endpoint: only(ENDPOINT),
  alone: only(ALONE),
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
