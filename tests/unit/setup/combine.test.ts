/** Several files as one run: the merge order, conflicts named with their winner, DeepSpeed's "auto" filled. */
import { describe, expect, test } from 'vitest';
import { combineReadings, conflictLine, readTrainingConfig, type FileReading } from '../../../src/setup/index.ts';

/** Read each `[file, text]`; the test fails if one is refused. */
function readAll(...files: [string, string][]): FileReading[] {
  return files.map(([file, text]) => {
    const outcome = readTrainingConfig(file, text);
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.reading;
  });
}

const LF_BF16: [string, string] = ['run.yaml', 'finetuning_type: full\nbf16: true\ndeepspeed: ds.json\n'];
const DS_FP16: [string, string] = ['ds.json', '{"fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}'];

describe('combineReadings', () => {
  test('bf16 in the YAML and fp16 in the DeepSpeed JSON: the JSON wins, and the line says both and why', () => {
    const result = combineReadings(readAll(LF_BF16, DS_FP16));
    expect(result.options.precision).toBe('mixed-fp16');
    expect(result.conflicts).toHaveLength(1);
    expect(conflictLine(result.conflicts[0]!)).toBe(
      '`bf16: amp-bf16` in run.yaml and `fp16.enabled: mixed-fp16` in ds.json: precision = mixed-fp16; the DeepSpeed JSON wins: DeepSpeed builds its engine from it (transformers refuses such a mismatch at start, trainer_config_finalize)',
    );
  });

  test('the order the files are given does not change the winner across ranks', () => {
    const forwards = combineReadings(readAll(LF_BF16, DS_FP16));
    const backwards = combineReadings(readAll(DS_FP16, LF_BF16));
    expect(backwards.options).toEqual(forwards.options);
  });

  test('the trainer’s arguments win over the accelerate config', () => {
    const result = combineReadings(
      readAll(['args.json', '{"fsdp": "no_shard"}'], ['accelerate.yaml', 'distributed_type: FSDP\nnum_processes: 4\n']),
    );
    expect(result.options).toEqual({ dp: 4, zero: 0 });
    expect(result.conflicts[0]?.why).toBe("the trainer's own arguments win over the launcher's config");
  });

  test('two trainer files: the later one wins', () => {
    const result = combineReadings(
      readAll(['a.json', '{"per_device_train_batch_size": 2}'], ['b', '--per_device_train_batch_size 8']),
    );
    expect(result.options.microBatch).toBe(8);
    expect(result.conflicts[0]?.why).toBe('the file given later wins');
  });

  test('the bucket sizes follow the hidden size given (transformers: h², 0.9·h², 10·h under ZeRO-3)', () => {
    const ds: [string, string] = [
      'ds.json',
      '{"zero_optimization": {"stage": 3, "reduce_bucket_size": "auto", "stage3_prefetch_bucket_size": "auto", "stage3_param_persistence_threshold": "auto"}}',
    ];
    const values = (hidden: number) =>
      combineReadings(readAll(ds), { hidden })
        .lines.map((line) => line.value)
        .slice(1);
    expect(values(1000)).toEqual([
      'auto → h² = 1000000 (h = 1000)',
      'auto → 0.9·h² = 900000 (h = 1000)',
      'auto → 10·h = 10000 (h = 1000)',
    ]);
    expect(values(2048)[0]).toBe('auto → h² = 4194304 (h = 2048)');
  });

  test('under ZeRO-2 only the reduce bucket is filled from the hidden size', () => {
    const ds: [string, string] = ['ds.json', '{"zero_optimization": {"stage": 2, "stage3_prefetch_bucket_size": "auto"}}'];
    const [, line] = combineReadings(readAll(ds), { hidden: 64 }).lines;
    expect(line?.effect).toEqual({
      kind: 'not-modelled',
      what: 'left as DeepSpeed sets it (not ZeRO-3)',
      reason: { code: 'autoNotZero3', params: [] },
    });
  });

  test('the stack is the trainer’s, not the launcher’s or DeepSpeed’s', () => {
    const result = combineReadings(readAll(['ds.json', '{"zero_optimization": {"stage": 2}}'], ['cmd', '--use_peft --bf16']));
    expect(result.stack).toBe('trl');
  });
});
