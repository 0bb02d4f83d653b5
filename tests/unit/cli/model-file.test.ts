/** `--config FILE` on estimate and plan: a config.json (or its folder) read defensively, bad input as exit 2 and one line. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { planCommand } from '../../../src/cli/plan-command.ts';
import { MAX_CONFIG_JSON_BYTES } from '../../../src/memory/index.ts';

const CONFIGS = fileURLToPath(new URL('../../../src/memory/model-configs/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'model-file-'));

/** Write `text` to a fresh file in the scratch folder and return its path. */
function fileWith(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

describe('estimate --config', () => {
  test('--json params is the count Transformers loads (Qwen/Qwen3-8B total_size 16381470720 / 2)', () => {
    const { code, stdout } = runCommand(estimateCommand, ['--config', join(CONFIGS, 'qwen3-8b.json'), '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { params: number }).params).toBe(8_190_735_360);
  });

  test('a folder holding config.json is read like the file', () => {
    const folder = mkdtempSync(join(scratch, 'checkpoint-'));
    writeFileSync(
      join(folder, 'config.json'),
      '{"model_type":"llama","hidden_size":256,"num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":512,"vocab_size":1000}',
    );
    const { code, stdout } = runCommand(estimateCommand, ['--config', folder]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Model\s+custom llama · /);
  });

  test('the reader’s warnings are printed with the estimate', () => {
    const { stdout } = runCommand(estimateCommand, ['--config', join(CONFIGS, 'deepseek-v3.json'), '--json']);
    expect((JSON.parse(stdout) as { warnings: string[] }).warnings.join(' ')).toMatch(/multi-token-prediction/);
  });

  test.each([
    ['malformed JSON', () => fileWith('broken.json', '{"hidden_size": 4096,'), /not valid JSON/],
    ['a missing key', () => fileWith('short.json', '{"model_type":"llama","hidden_size":256}'), /num_hidden_layers is missing/],
    ['a negative width', () => fileWith('negative.json', '{"hidden_size":-1}'), /hidden_size must be a whole number/],
    ['a file over 1 MB', () => fileWith('huge.json', ' '.repeat(MAX_CONFIG_JSON_BYTES + 1)), /over the 1 MB limit/],
    ['no such file', () => join(scratch, 'absent.json'), /cannot read it/],
  ])('%s: exit 2 and one line naming it', (_case, path, message) => {
    const { code, stdout, stderr } = runCommand(estimateCommand, ['--config', path()]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  test('--config with --model is refused: the file gives the whole model', () => {
    const { code, stderr } = runCommand(estimateCommand, ['--config', join(CONFIGS, 'qwen3-8b.json'), '--model', 'gpt2']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--model: a config.json gives the whole model/);
  });
});

describe('plan --config', () => {
  test('plans for the model in the file', () => {
    const argv = [
      '--config',
      join(CONFIGS, 'llama-3.2-3b.json'),
      '--gpu',
      'a100-80gb',
      '--gpus',
      '2',
      '--global-batch',
      '8',
      '--seq',
      '1024',
      '--json',
    ];
    const { code, stdout } = runCommand(planCommand, argv);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { plans: unknown[] }).plans.length).toBeGreaterThan(0);
  });

  test('a bad file: exit 2 and one line', () => {
    const { code, stderr } = runCommand(planCommand, [
      '--config',
      fileWith('plan-bad.json', '[]'),
      '--gpu',
      'a100-80gb',
      '--global-batch',
      '8',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/one JSON object/);
  });
});
