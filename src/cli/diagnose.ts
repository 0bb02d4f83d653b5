/** Entry point of `npm run diagnose`: runs `diagnoseMain` on process.argv, reading FILE or standard input (`-`). */
import { readFileSync } from 'node:fs';
import { diagnoseMain } from './diagnose-main.ts';

const { code, stdout, stderr } = diagnoseMain(process.argv.slice(2), (source) => readFileSync(source === '-' ? 0 : source));
if (stdout !== '') process.stdout.write(stdout);
if (stderr !== '') process.stderr.write(stderr);
process.exitCode = code;
