import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { combineReadings, conflictLine, effectText, readTrainingConfig, type FileReading } from '../../../src/setup/index';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { HAN } from '../../support/chinese-text';

/**
 * The training-config reader words a mapping in its page's language (the words-object pattern of issue #33): the same
 * lines, each phrase in Chinese where the English says what a line does; flags stay flags, the CLI's English unchanged.
 */
const ZH = MESSAGES['zh-cn'].trainingConfig.setup;

function read(...names: string[]): FileReading[] {
  return names.map((name) => {
    const file = resolve(import.meta.dirname, '../../fixtures/training-configs', name);
    const outcome = readTrainingConfig(basename(file), readFileSync(file, 'utf8'));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    return outcome.reading;
  });
}

describe('a mapping in the page’s words', () => {
  const mapping = combineReadings(read('llama-factory/llama3_full_sft.yaml', 'llama-factory/ds_z3_config.json'));

  test('a flag stays the flag; every other effect is framed in Chinese, in English by default', () => {
    const options = mapping.lines.filter((line) => line.effect.kind === 'option');
    const others = mapping.lines.filter((line) => line.effect.kind !== 'option');
    expect(options.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    for (const line of options) expect(effectText(line, ZH)).toBe(effectText(line));
    for (const line of others) {
      expect(effectText(line, ZH)).toMatch(HAN);
      expect(effectText(line)).not.toMatch(HAN);
    }
  });

  test('a conflict names each file’s value in Chinese, with the keys as code', () => {
    // bf16 in the YAML, fp16 in the DeepSpeed JSON it names: one conflict, the JSON wins.
    const given: [string, string][] = [
      ['run.yaml', 'finetuning_type: full\nbf16: true\ndeepspeed: ds.json\n'],
      ['ds.json', '{"fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}'],
    ];
    const readings = given.map(([file, text]) => {
      const outcome = readTrainingConfig(file, text);
      if (!outcome.ok) throw new Error(outcome.error.message);
      return outcome.reading;
    });
    const [conflict] = combineReadings(readings).conflicts;
    if (conflict === undefined) throw new Error('the two files conflict');
    const line = conflictLine(conflict, ZH);
    expect(line).toMatch(HAN);
    expect(line).toContain('run.yaml 中的 `bf16: amp-bf16`');
    expect(line).toContain('ds.json 中的 `fp16.enabled: mixed-fp16`');
    expect(conflictLine(conflict)).not.toMatch(HAN);
    expect(ZH.mergeOrder).toMatch(HAN);
  });
});
