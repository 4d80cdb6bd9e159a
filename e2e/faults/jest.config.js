// The fault suite (`npm run test:faults`, tools/test/faults.ts): each file starts its own stack
// (three brokers, two copies of each app) and breaks the infrastructure under load.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'faults',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.faults.ts'],
  // A fault is held 30 s, then the invariants may wait for a slow recovery on a busy machine.
  testTimeout: 300_000,
  // kafkajs clients of the checks keep timers after disconnecting; the stack is down by then.
  forceExit: true,
};
