/** Entry point of `npm run diagnose`: FILE, or standard input for `-`. */
import { runInProcess } from './command.ts';
import { diagnoseCommand } from './diagnose-command.ts';

runInProcess(diagnoseCommand);
