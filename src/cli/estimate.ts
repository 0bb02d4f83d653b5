/** Entry point of `npm run estimate`. */
import { runInProcess } from './command.ts';
import { estimateCommand } from './estimate-command.ts';

runInProcess(estimateCommand);
