// The operators' path on a real Docker engine (`npm run test:compose`, tools/docker/compose-test.ts).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'compose',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.compose.ts'],
  // Stacks take minutes to come up on a busy 2-core machine.
  testTimeout: 900_000,
  // kafkajs consumers of the topic checks keep timers after disconnecting; the stack is down by then.
  forceExit: true,
};
