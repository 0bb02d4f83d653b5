/** `--training-config FILE` on estimate and plan: the mapping printed first, JSON that reproduces without the files, bad input as exit 2. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand, type EstimateJson } from '../../../src/cli/estimate-command.ts';
import { planCommand } from '../../../src/cli/plan-command.ts';
import { flagArgs } from '../../../src/memory/index.ts';
import { MAX_TRAINING_CONFIG_BYTES } from '../../../src/setup/index.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/training-configs/', import.meta.url));
const LF_FULL = join(FIXTURES, 'llama-factory/llama3_full_sft.yaml');
const DS_Z3 = join(FIXTURES, 'llama-factory/ds_z3_config.json');
const scratch = mkdtempSync(join(tmpdir(), 'training-config-'));

/** Write `text` to a fresh file in the scratch folder and return its path. */
function fileWith(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

function estimateJson(argv: readonly string[]): EstimateJson {
  const { code, stdout, stderr } = runCommand(estimateCommand, [...argv, '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as EstimateJson;
}

describe('estimate --training-config', () => {
  test('the mapping is printed before the estimate, file by file, with the conflicts and what is not modelled', () => {
    const { code, stdout } = runCommand(estimateCommand, [
      '--model',
      'llama-3-8b',
      '--training-config',
      LF_FULL,
      '--training-config',
      DS_Z3,
    ]);
    expect(code).toBe(0);
    expect(stdout.indexOf('Training config')).toBe(0);
    expect(stdout.indexOf('Training config')).toBeLessThan(stdout.indexOf('GPU Memory Lab · estimate'));
    expect(stdout).toMatch(/cutoff_len = 2048\s+→ --seq 2048/);
    expect(stdout).toMatch(/bf16\.enabled = auto → bf16\s+→ --precision mixed-bf16/);
    expect(stdout).toMatch(/reduce_bucket_size = auto → h² = 16777216 \(h = 4096\)\s+→ not modelled/);
  });

  test('--json carries the mapping, and its flags reproduce the same estimate without the files', () => {
    const withFiles = estimateJson([
      '--model',
      'llama-3-8b',
      '--dp',
      '8',
      '--training-config',
      LF_FULL,
      '--training-config',
      DS_Z3,
    ]);
    expect(withFiles.flags).toMatchObject({
      zero: '3',
      precision: 'mixed-bf16',
      'micro-batch': '1',
      'grad-accum': '2',
      seq: '2048',
      dp: '8',
    });
    expect(withFiles.trainingConfig?.stack).toBe('llama-factory');
    expect(withFiles.trainingConfig?.files.map((f) => f.tool)).toEqual(['llama-factory', 'deepspeed']);
    const without = estimateJson(flagArgs(withFiles.flags));
    expect(without.perGpu).toEqual(withFiles.perGpu);
    expect(without.trainingConfig).toBeUndefined();
  });

  test('a flag given beside the files wins over them', () => {
    const json = estimateJson(['--model', 'llama-3-8b', '--training-config', DS_Z3, '--zero', '2', '--dp', '4']);
    expect(json.flags['zero']).toBe('2');
  });

  test.each([
    ['unparseable YAML', 'bad.yaml', 'stage: sft\n  bad: [indent\n', /^estimate: --training-config .*bad\.yaml: not valid YAML/],
    ['unparseable JSON', 'bad.json', '{"zero_optimization": }', /^estimate: --training-config .*bad\.json: not valid JSON/],
    [
      'an unknown tool',
      'notes.yaml',
      'title: my run\n',
      /^estimate: --training-config .*notes\.yaml: cannot tell which tool wrote it/,
    ],
    [
      'a value of the wrong type',
      'lf.yaml',
      'finetuning_type: lora\nlora_rank: eight\n',
      /^estimate: --training-config .*lf\.yaml: lora_rank: expected a number, got eight$/,
    ],
    [
      'a file over 1 MiB',
      'big.yaml',
      `# ${'x'.repeat(MAX_TRAINING_CONFIG_BYTES)}\n`,
      /^estimate: --training-config .*big\.yaml: \d+ bytes, over the 1 MiB limit/,
    ],
  ])('%s: exit 2 and one line naming the file (and the key)', (_case, name, text, line) => {
    const { code, stdout, stderr } = runCommand(estimateCommand, ['--model', 'gpt2', '--training-config', fileWith(name, text)]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr.trimEnd()).toMatch(line);
  });

  test('a file that does not exist', () => {
    const { code, stderr } = runCommand(estimateCommand, ['--model', 'gpt2', '--training-config', join(scratch, 'absent.yaml')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^estimate: --training-config .*absent\.yaml: cannot read it \(/);
  });
});

describe('estimate --write-config', () => {
  test('the setup as a tool file, what it cannot say as comments; read back, the same estimate', () => {
    const argv = ['--model', 'llama-3-8b', '--training-config', join(FIXTURES, 'axolotl/qlora.yml')];
    const { code, stdout } = runCommand(estimateCommand, [...argv, '--write-config', 'llama-factory-yaml']);
    expect(code).toBe(0);
    // axolotl's paged_adamw_32bit and lora_dropout 0.05 have LLaMA-Factory keys. axolotl runs PEFT's
    // prepare_model_for_kbit_training (fp32 embeddings, head and norms); LLaMA-Factory does not, and its YAML has no
    // key to ask for it: that is the one note.
    expect(stdout.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      "# not in this file: qloraKept: LLaMA-Factory keeps a 4-bit base's other parameters in 16 bits",
    ]);
    expect(stdout).toContain('optim: paged_adamw_32bit\n');
    expect(stdout).toContain('lora_dropout: 0.05\n');
    const unsaid = runCommand(estimateCommand, [...argv, '--optimizer', 'adamw', '--write-config', 'llama-factory-yaml']);
    expect(unsaid.stdout.split('\n')[1]).toBe(
      "# not in this file: optimizer: AdamW without an implementation: the Trainer's default optim is the stack's",
    );
    const written = fileWith('written.yaml', stdout);
    const original = estimateJson(argv);
    // The note's option given beside the file reproduces the estimate.
    const readBack = estimateJson(['--model', 'llama-3-8b', '--qlora-kept', 'fp32', '--training-config', written]);
    expect(readBack.perGpu).toEqual(original.perGpu);
  });

  test('--json carries the file and its notes; an unknown format is exit 2', () => {
    const json = estimateJson(['--model', 'gpt2', '--zero', '2', '--dp', '4', '--write-config', 'deepspeed-json']);
    expect(JSON.parse(json.writtenConfig?.text ?? '')).toEqual({
      train_micro_batch_size_per_gpu: 'auto',
      zero_optimization: { stage: 2 },
    });
    // GPT-2's fp32 checkpoint trains under autocast on the Trainer; DeepSpeed's bf16 keeps an fp32 master copy instead,
    // so the precision the estimate ran on is one the DeepSpeed file cannot say.
    expect(json.writtenConfig?.targetStack).toBe('deepspeed');
    expect(json.writtenConfig?.unexpressed).toEqual([
      { option: 'precision', why: expect.stringMatching(/^amp-bf16: /) },
      { option: 'dp', why: expect.stringMatching(/launcher/) },
    ]);
    const { code, stderr } = runCommand(estimateCommand, ['--model', 'gpt2', '--write-config', 'yaml']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^estimate: --write-config: expected training-arguments, .*, got 'yaml'/);
  });
});

describe('plan --training-config', () => {
  test('the files give the job: sequence, global batch and the fine-tuning task', () => {
    const { code, stdout } = runCommand(planCommand, [
      '--model',
      'llama-3-8b',
      '--gpu',
      'h100-80gb',
      '--training-config',
      join(FIXTURES, 'axolotl/qlora.yml'),
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as {
      request: { seq: number; globalBatch: number; task: string; gpus: number };
      trainingConfig: { stack: string };
    };
    // axolotl/qlora.yml: sequence_len 4096, micro_batch_size 2 × gradient_accumulation_steps 4 on one GPU.
    expect(json.request).toMatchObject({ seq: 4096, globalBatch: 8, task: 'finetune', gpus: 1 });
    expect(json.trainingConfig.stack).toBe('axolotl');
  });

  test('a technique the files fix is not refused as a planner choice', () => {
    const { code } = runCommand(planCommand, [
      '--model',
      'gpt2',
      '--gpu',
      'rtx-4090',
      '--training-config',
      DS_Z3,
      '--global-batch',
      '8',
    ]);
    expect(code).toBe(0);
  });
});
