#!/usr/bin/env node
// Runs the tandem binary of this platform: npm installed the one optional
// dependency whose os and cpu match, and skipped the others. Arguments,
// stdio (the protocol channel for `tandem acp`) and the exit status pass
// through unchanged.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const pkg = `@tandemhq/tandem-${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'tandem.exe' : 'tandem';
let bin;
try {
  bin = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin', exe);
} catch {
  process.stderr.write(`tandem: no binary for ${process.platform}-${process.arch}: ${pkg} is not installed ` +
    '(was the install run with --no-optional, or is this platform unsupported?)\n');
  process.exit(1);
}
const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' });
// A signal to the launcher (an editor stopping the agent) reaches tandem.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => child.kill(sig));
}
child.on('error', (err) => {
  process.stderr.write(`tandem: cannot start ${bin}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, as the editor expects of its agent.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  else process.exit(code ?? 1);
});
