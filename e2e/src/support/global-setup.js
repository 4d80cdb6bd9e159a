module.exports = require('./typescript-setup')('global-setup.ts');
