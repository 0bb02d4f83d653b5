/**
 * Every mapping rule names the version of the tool it was read from: a release number or the commit read. A rule
 * cited by file alone cannot be checked against the tool a reader runs, so an unpinned one fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { readTrainingConfig, type MappingLine } from '../../../src/setup/index.ts';
import { SETUP_SOURCES } from '../../../src/setup/sources.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/training-configs/', import.meta.url));

/** The tools a source may cite; each clause that starts with one must pin it. */
const TOOLS =
  /^(transformers|torch|PyTorch|TRL|PEFT|DeepSpeed|accelerate|LLaMA-Factory|axolotl|torchtune|torchtitan|Liger-Kernel|Unsloth|bitsandbytes)\b/;

/** A release number (0.19.6, 1.15.0.dev0, 2026.8.19) or a commit (@edaa722). */
const PINNED = /\b\d+\.\d+(\.\d+)?|@[0-9a-f]{7,40}\b/;

/** The clauses of a source that cite a tool but name neither its version nor the commit read. */
function unpinned(source: string): string[] {
  return source
    .split('; ')
    .map((clause) => clause.trim())
    .filter((clause) => TOOLS.test(clause) && !PINNED.test(clause));
}

/** Files that exercise the rules the real fixtures leave out (optimizers, attention, sharding, the mesh, hpZ). */
const RULE_FILES: ReadonlyArray<readonly [string, string]> = [
  ['args.json', '{"optim": "paged_adamw_8bit", "attn_implementation": "eager", "fsdp": "hybrid_shard_zero2 offload"}'],
  ['args.json', '{"optim": "adamw_torch", "use_liger_kernel": true, "gradient_checkpointing": true, "deepspeed": "ds.json"}'],
  ['ds.json', '{"zero_optimization": {"stage": 3, "zero_hpz_partition_size": 8}, "optimizer": {"type": "AdamW"}}'],
  [
    'accelerate.yaml',
    'distributed_type: FSDP\nnum_machines: 2\nnum_processes: 16\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
  ],
  ['axolotl.yaml', 'base_model: x\ndp_shard_size: 8\ndp_replicate_size: 2\nfsdp: [shard_grad_op]\n'],
  ['overrides', 'data_parallel_shard_dim=8 data_parallel_replicate_dim=2 tensor_parallel_dim=2'],
  [
    'train.toml',
    '[job]\n[training]\ndtype = "bfloat16"\n[optimizer]\nname = "Lion"\nimplementation = "foreach"\n[activation_checkpoint]\nmode = "memory_budget"\n',
  ],
];

/** Every line the readers write for the committed real files and the rule files. */
function mappingLines(): MappingLine[] {
  const inputs: (readonly [string, string])[] = [...RULE_FILES];
  for (const tool of readdirSync(FIXTURES, { withFileTypes: true }).filter((entry) => entry.isDirectory()))
    for (const file of readdirSync(`${FIXTURES}${tool.name}`))
      inputs.push([`${tool.name}/${file}`, readFileSync(`${FIXTURES}${tool.name}/${file}`, 'utf8')]);
  return inputs.flatMap(([file, text]) => {
    const outcome = readTrainingConfig(file, text);
    if (!outcome.ok) throw new Error(`${file}: ${outcome.error.key}: ${outcome.error.message}`);
    return outcome.reading.lines;
  });
}

describe('rule sources', () => {
  test.each(Object.entries(SETUP_SOURCES))('%s names the version or commit of every tool it cites', (_name, source) => {
    expect(TOOLS.test(source)).toBe(true);
    expect(unpinned(source)).toEqual([]);
  });

  test('every mapping line the readers write for the real files and the rule files cites a pinned source', () => {
    const lines = mappingLines().filter((line) => line.source !== '');
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.filter((line) => unpinned(line.source).length > 0 || !PINNED.test(line.source))).toEqual([]);
  });

  test('the check fails on a source cited by file alone', () => {
    expect(unpinned('transformers 5.x src/transformers/training_args.py (OptimizerNames)')).toHaveLength(1);
    expect(unpinned('DeepSpeed 0.19.6 @edaa722 engine.py; torch/optim/optimizer.py')).toEqual(['torch/optim/optimizer.py']);
    // A clause that continues the same tool's citation (another of its files) needs no second pin.
    expect(unpinned('axolotl 0.18.0 @067b021 loaders/model.py; loaders/patch_manager.py:363-366')).toEqual([]);
    expect(unpinned('accelerate 1.15.0.dev0 @16cb6eb launch.py; PEFT src/peft/tuners/lora/config.py')).toHaveLength(1);
  });
});
