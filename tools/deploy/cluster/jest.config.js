// The Helm chart on a real kube-apiserver (`npm run test:kubernetes`, tools/deploy/cluster/run.ts):
// not part of `npm test`, whose tools project matches *.spec.ts only; .ci/run runs it after the suite.
module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'kubernetes',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.cluster.ts'],
  // A first build of the API server on a new machine, then its start on a busy one.
  testTimeout: 300_000,
};
