#!/usr/bin/env node
// Run after `npm install`: the registries reachable here do not serve every platform binding of
// some packages (e.g. @unrs/resolver-binding-*), npm leaves those optional dependencies out of
// package-lock.json, and `npm ci` then refuses the lock. This records them with their os/cpu,
// so npm skips them on other platforms without fetching anything.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', '..', 'package-lock.json');

function missingOptionalEntries(lock) {
  const packages = lock.packages;
  const missing = new Map();
  for (const [location, spec] of Object.entries(packages)) {
    for (const [dep, range] of Object.entries(spec.optionalDependencies ?? {})) {
      const nested = `${location ? `${location}/` : ''}node_modules/${dep}`;
      const hoisted = `node_modules/${dep}`;
      if (packages[nested] || packages[hoisted] || missing.has(hoisted)) continue;
      const entry = { version: range.replace(/^[\^~]/, ''), optional: true };
      if (spec.dev) entry.dev = true;
      const m = /-(android|darwin|freebsd|linux|openharmony|win32|wasm32)-?([a-z0-9]*)/.exec(dep);
      if (m && m[1] === 'wasm32') entry.cpu = ['wasm32'];
      else if (m) {
        entry.os = [m[1]];
        if (m[2]) entry.cpu = [m[2]];
      }
      missing.set(hoisted, entry);
    }
  }
  return missing;
}

module.exports = { missingOptionalEntries };

if (require.main === module) {
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  const missing = missingOptionalEntries(lock);
  for (const [key, entry] of missing) lock.packages[key] = entry;
  const [root, ...rest] = Object.entries(lock.packages);
  lock.packages = Object.fromEntries([root, ...rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`recorded ${missing.size} optional entries`);
}
