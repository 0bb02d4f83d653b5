/** One file in: its tool told from its keys, and bad input refused with one line naming the file and the key. */
import { describe, expect, test } from 'vitest';
import { MAX_TRAINING_CONFIG_BYTES, readTrainingConfig, setupErrorLine } from '../../../src/setup/index.ts';

/** The one line a refused file gets (the test fails if the file was read). */
function refusal(file: string, text: string): string {
  const outcome = readTrainingConfig(file, text);
  if (outcome.ok) throw new Error(`${file} was read as ${outcome.reading.tool}`);
  return setupErrorLine(outcome.error);
}

describe('readTrainingConfig: which tool', () => {
  test.each([
    ['{"zero_optimization": {"stage": 2}}', 'deepspeed'],
    ['distributed_type: MULTI_GPU\nnum_processes: 4\n', 'accelerate'],
    ['model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\n', 'torchtune'],
    ['from_pretrained:\n  max_seq_length: 2048\n', 'unsloth'],
    ['finetuning_type: lora\n', 'llama-factory'],
    ['base_model: NousResearch/Meta-Llama-3-8B\nadapter: lora\n', 'axolotl'],
    ['{"per_device_train_batch_size": 4}', 'training-arguments'],
    ['--per_device_train_batch_size 4 --bf16', 'training-arguments'],
  ])('%s is a %s file', (text, tool) => {
    const outcome = readTrainingConfig('f', text);
    expect(outcome.ok && outcome.reading.tool).toBe(tool);
  });
});

describe('readTrainingConfig: bad input is one line naming the file and the key', () => {
  test('unparseable YAML', () => {
    expect(refusal('a.yaml', 'stage: sft\n  bad: [indent\n')).toMatch(/^a\.yaml: not valid YAML \(/);
  });

  test('unparseable JSON', () => {
    expect(refusal('ds.json', '{"zero_optimization": {"stage": 3},}')).toMatch(/^ds\.json: not valid JSON \(/);
  });

  test('a YAML tag that would build a Python object is refused, not read as text', () => {
    expect(refusal('x.yaml', 'finetuning_type: !!python/object:os.system ls\n')).toMatch(/^x\.yaml: YAML tags are not read/);
  });

  test('a file no tool wrote', () => {
    expect(refusal('notes.yaml', 'title: my run\nauthor: me\n')).toBe(
      'notes.yaml: cannot tell which tool wrote it: expected TrainingArguments/SFTConfig, DeepSpeed, accelerate, LLaMA-Factory, axolotl, torchtune, torchtitan or Unsloth keys',
    );
  });

  test('a value of the wrong type names the key', () => {
    expect(refusal('lf.yaml', 'finetuning_type: lora\nlora_rank: eight\n')).toBe(
      'lf.yaml: lora_rank: expected a number, got eight',
    );
    expect(refusal('ds.json', '{"zero_optimization": {"stage": 4}}')).toBe(
      'ds.json: zero_optimization.stage: expected 0, 1, 2 or 3, got 4',
    );
    expect(refusal('tt.yaml', 'model:\n  _component_: torchtune.models.llama3_1.lora_llama3_1_8b\nbatch_size: 0\n')).toBe(
      'tt.yaml: batch_size: expected a whole number of at least 1, got 0',
    );
  });

  test('a command line whose boolean is not one HfArgumentParser reads', () => {
    expect(refusal('cmd', '--bf16 maybe')).toBe('cmd: bf16: expected true or false, got maybe');
  });

  test('a file over 1 MiB is refused before it is parsed', () => {
    const text = `output_dir: x\n#${'a'.repeat(MAX_TRAINING_CONFIG_BYTES)}\n`;
    expect(refusal('big.yaml', text)).toMatch(/^big\.yaml: \d+ bytes, over the 1 MiB limit/);
  });

  test('an empty file', () => {
    expect(refusal('empty.yaml', '  \n')).toBe('empty.yaml: the file is empty');
  });
});

describe('readTrainingConfig: keys', () => {
  test('keys the reader does not know are listed, known irrelevant ones ignored', () => {
    const outcome = readTrainingConfig('lf.yaml', 'finetuning_type: full\nlearning_rate: 1.0e-5\nmystery_knob: 3\n');
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.reading.unknown).toEqual([{ file: 'lf.yaml', key: 'mystery_knob' }]);
    expect(outcome.reading.ignored).toEqual([{ file: 'lf.yaml', key: 'learning_rate' }]);
  });

  test('every option line carries a source naming the tool version or doc page', () => {
    const outcome = readTrainingConfig('lf.yaml', 'finetuning_type: lora\nlora_rank: 16\nbf16: true\noptim: adamw_torch_fused\n');
    if (!outcome.ok) throw new Error(outcome.error.message);
    for (const line of outcome.reading.lines) expect(line.source).toMatch(/\d+\.\d+|docs|\.py/);
  });
});
