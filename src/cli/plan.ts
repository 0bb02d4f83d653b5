/** Entry point of `npm run plan`: runs `planMain` on process.argv and writes its output. */
import { planMain } from './plan-main.ts';

const { code, stdout, stderr } = planMain(process.argv.slice(2));
if (stdout !== '') process.stdout.write(stdout);
if (stderr !== '') process.stderr.write(stderr);
process.exitCode = code;
