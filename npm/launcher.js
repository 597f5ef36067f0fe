#!/usr/bin/env node
// The command npm puts on PATH for hookshim and hookshim-remote: it runs
// the binary of the platform package npm installed for this machine (an
// optional dependency of the hookshim package), with this process's
// streams, and exits as it exits. A hook's stdout and exit code are its
// answer to the tool, so nothing is added to either.
'use strict';
const { spawnSync } = require('child_process');
const path = require('path');

const name = path.basename(__filename, '.js');
const pkg = `hookshim-${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? '.exe' : '';
let bin;
try {
  bin = require.resolve(`${pkg}/bin/${name}${exe}`);
} catch {
  process.stderr.write(`hookshim: error: no ${name} for ${process.platform}-${process.arch}: the package ${pkg} is not installed\n` +
    'hookshim: hint: install without --omit=optional, or use a release archive (README.md, "Install")\n');
  process.exit(1);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
if (r.error) {
  process.stderr.write(`hookshim: error: starting ${bin}: ${r.error.message}\n`);
  process.exit(1);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status);
