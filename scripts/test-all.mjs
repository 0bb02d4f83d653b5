// `npm test`: builds the site, runs every Vitest project (unit + browser), and ends with one
// line "N passed, N failed" that counts all tests, the line CI reads.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false }).status ?? 1;

if (run('npm', ['run', '--silent', 'build']) !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';
const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)]);

let passed = 0;
let failed = 0;
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  failed = results.numFailedTests + (status !== 0 && results.numFailedTests === 0 ? 1 : 0);
} catch {
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
