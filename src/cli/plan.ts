/** Entry point of `npm run plan`. */
import { runInProcess } from './command.ts';
import { planCommand } from './plan-command.ts';

runInProcess(planCommand);
