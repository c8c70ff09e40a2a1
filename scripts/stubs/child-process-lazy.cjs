// node:child_process for commander, loaded on first use. commander requires it when it loads but uses it
// only to run executable subcommands (`fsapi-foo` files), which fsapi has none of; loading it anyway pulls
// in net, stream and dgram, about a tenth of `fsapi --help` on Node 22 (bench/startup.mjs).
'use strict';
let childProcess;
const load = () => (childProcess ??= require('node:child_process'));
module.exports = {
  spawn: (...args) => load().spawn(...args),
};
