#!/usr/bin/env node
/** Entry point of the package's bins (`gpu-memory-lab`, `gml`) and of `npm run estimate|plan|diagnose`. */
import { runProgram } from './program.ts';

const { code, stdout, stderr } = runProgram(process.argv.slice(2));
if (stdout !== '') process.stdout.write(stdout);
if (stderr !== '') process.stderr.write(stderr);
process.exitCode = code;
