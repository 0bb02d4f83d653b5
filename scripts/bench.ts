// `npm run bench`: runs every benchmark in scripts/bench/ (or those named on the command line)
// one after another; each prints its own table.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const dir = join(import.meta.dirname, 'bench');
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(basename(f, '.ts')))
  .sort();

for (const file of files) {
  const { default: bench } = (await import(join(dir, file))) as { default: () => Promise<void> };
  console.log(`\n## ${basename(file, '.ts')}\n`);
  await bench();
}
