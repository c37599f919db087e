/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node in the image build */
// Build stage helper: removes the development dependencies of one workspace from the manifests the
// runtime stage installs from (its package.json and its entry in package-lock.json). npm's
// `ci --omit=dev --workspace X` still installs X's own devDependencies (every workspace counts as a
// production dependency of the root), which would put test tooling into the image.
//   node docker/strip-dev-deps.cjs <manifests dir> <workspace>
const fs = require('node:fs');
const path = require('node:path');

const [dir, workspace] = process.argv.slice(2);
if (!dir || !workspace) {
  console.error('usage: strip-dev-deps.cjs <manifests dir> <workspace>');
  process.exit(1);
}
const manifestFile = path.join(dir, workspace, 'package.json');
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
delete manifest.devDependencies;
fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

const lockFile = path.join(dir, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
if (lock.packages?.[workspace]) delete lock.packages[workspace].devDependencies;
fs.writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
