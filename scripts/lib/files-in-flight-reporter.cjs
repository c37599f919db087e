/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, loaded by jest as a reporter */
/**
 * A jest reporter that keeps, in the file named by JEST_IN_FLIGHT_FILE, the test files that have
 * started and not yet ended (one path per line). scripts/run-tests.ts reads it when a phase runs
 * past its time limit, to say which files never finished.
 */
const fs = require('node:fs');

class FilesInFlightReporter {
  constructor() {
    this.file = process.env.JEST_IN_FLIGHT_FILE;
    this.running = new Set();
  }

  write() {
    if (this.file) fs.writeFileSync(this.file, [...this.running].join('\n'));
  }

  onTestFileStart(test) {
    this.running.add(test.path);
    this.write();
  }

  onTestFileResult(test) {
    this.running.delete(test.path);
    this.write();
  }
}

module.exports = FilesInFlightReporter;
