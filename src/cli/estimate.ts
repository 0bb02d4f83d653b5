/** Entry point of `npm run estimate`: runs `main` on process.argv and writes its output. */
import { main } from './main.ts';

const { code, stdout, stderr } = main(process.argv.slice(2));
if (stdout !== '') process.stdout.write(stdout);
if (stderr !== '') process.stderr.write(stderr);
process.exitCode = code;
