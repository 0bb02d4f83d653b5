/** The presets generated from committed config.json files: enough of them, and estimated with every detail they were read with. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CONFIG_PRESETS } from '../../../src/memory/config-presets.ts';
import { countParams, estimateMemory, readConfigJson } from '../../../src/memory/index.ts';

describe('CONFIG_PRESETS', () => {
  test.each(CONFIG_PRESETS.map((preset) => [preset.id, preset] as const))(
    '%s is its committed config.json, read, not typed',
    (id, preset) => {
      const text = readFileSync(new URL(`../../../src/memory/model-configs/${id}.json`, import.meta.url), 'utf8');
      const reading = readConfigJson(text);
      expect(reading.ok && reading.config).toEqual(preset.config);
    },
  );

  test.each(CONFIG_PRESETS.map((preset) => [preset.id, preset] as const))(
    'estimate --model %s counts what the config.json gives (no field dropped on the way)',
    (id, preset) => {
      const outcome = estimateMemory({ model: id });
      expect(outcome.ok && outcome.result.params).toBe(countParams(preset.config).total);
    },
  );
});
