module.exports = require('./typescript-setup')('global-teardown.ts');
