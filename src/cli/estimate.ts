/** Entry point of `npm run estimate`: runs `main` on process.argv and writes its output. */
import { estimateMain } from './estimate-main.ts';

const { code, stdout, stderr } = estimateMain(process.argv.slice(2));
if (stdout !== '') process.stdout.write(stdout);
if (stderr !== '') process.stderr.write(stderr);
process.exitCode = code;
