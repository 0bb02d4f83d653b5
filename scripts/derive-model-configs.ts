/**
 * Writes every derived config.json (scripts/model-configs/derived-configs.ts) into src/memory/model-configs/, formatted
 * as the repository formats JSON. `tests/unit/memory/derived-configs.test.ts` holds the committed files to the
 * derivation, so a file edited by hand fails there.
 *
 * Usage: tsx scripts/derive-model-configs.ts
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { DERIVED_CONFIGS } from './model-configs/derived-configs.ts';

const CONFIGS_DIR = new URL('../src/memory/model-configs/', import.meta.url);

for (const { file, original, derive } of DERIVED_CONFIGS) {
  const path = fileURLToPath(new URL(file, CONFIGS_DIR));
  const options = await resolveConfig(path);
  await writeFile(path, await format(JSON.stringify(derive()), { ...options, filepath: path }));
  console.log(`${file} ← ${original}`);
}
