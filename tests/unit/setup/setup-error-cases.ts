/**
 * One bad file per way the reader refuses one (bar a file over 1 MiB, made where it is needed), with the English line
 * the terminal prints for it: a parser's own reason is matched, not written out. Shared by the English test
 * (tests/unit/setup) and the Chinese one (tests/unit/i18n).
 */
import type { SetupErrorWords } from '../../../src/setup/error-words.ts';

export interface SetupErrorCase {
  readonly code: keyof SetupErrorWords;
  readonly file: string;
  readonly text: string;
  readonly line: string | RegExp;
}

/** A TOML file's lines each way the subset refuses one: the text, the line at fault and the reason given. */
const TOML_CASES: readonly (readonly [string, number, string])[] = [
  ['[job]\n[[stage]]\n', 2, 'arrays of tables ([[…]]) are not read'],
  ['[job]\n[training\n', 2, 'a table header must end with ]: [training'],
  ['[job]\ndump_folder\n', 2, 'expected key = value, got dump_folder'],
  ['[job]\nx = 1\nx = 2\n', 3, 'x is given twice'],
  ['[job]\n"quoted key" = 1\n', 2, 'expected a bare key, got "quoted key"'],
  ['[job]\nx = 1\n[job.x]\n', 3, 'x is a value, not a table'],
  ['[job]\nx =\n', 2, 'a key needs a value'],
  ['[job]\nx = """\n', 2, 'multi-line strings are not read'],
  ['[job]\nx = "a" b\n', 2, 'unexpected text after a string: b'],
  ['[job]\nx = { y = 1 }\n', 2, 'inline tables ({…}) are not read'],
  ['[job]\nwhen = 1979-05-27\n', 2, 'not a value this reader knows: 1979-05-27'],
  ['[job]\nx = "a\\qb"\n', 2, 'unknown escape \\q'],
  ['[job]\nx = "open\n', 2, 'a string is not closed on its line'],
  ['[job]\nx = [1,\n', 2, 'arrays must close on their line'],
  ['[job]\nx = [[1], 2]\n', 2, 'nested arrays are not read'],
  ['[job]\nx = ["a" "b"]\n', 2, 'expected , between array items, got "b"'],
];

const TORCHTUNE_LORA = 'model:\n  _component_: torchtune.models.llama3_1.lora_llama3_1_8b\n';

export const SETUP_ERROR_CASES: readonly SetupErrorCase[] = [
  { code: 'empty', file: 'empty.yaml', text: '  \n', line: 'empty.yaml: the file is empty' },
  ...TOML_CASES.map(([text, line, reason]) => ({
    code: 'notToml' as const,
    file: 'tt.toml',
    text,
    line: `tt.toml: not read as TOML (line ${line}: ${reason})`,
  })),
  { code: 'notJson', file: 'ds.json', text: '{"zero_optimization": {"stage": 3},}', line: /^ds\.json: not valid JSON \(.+\)$/ },
  { code: 'notYaml', file: 'a.yaml', text: 'stage: sft\n  bad: [indent\n', line: /^a\.yaml: not valid YAML \(.+\)$/ },
  {
    code: 'yamlTag',
    file: 'x.yaml',
    text: 'finetuning_type: !!python/object:os.system ls\n',
    line: /^x\.yaml: YAML tags are not read \(.+\)$/,
  },
  {
    code: 'notKeysOrCommandLine',
    file: 'words.txt',
    text: 'just some words\n',
    line: 'words.txt: expected keys and values (JSON or YAML) or a command line of --flags',
  },
  {
    code: 'unknownTool',
    file: 'notes.yaml',
    text: 'title: my run\nauthor: me\n',
    line: 'notes.yaml: cannot tell which tool wrote it: expected TrainingArguments/SFTConfig, DeepSpeed, accelerate, LLaMA-Factory, axolotl, torchtune, torchtitan or Unsloth keys',
  },
  {
    code: 'notNumber',
    file: 'lf.yaml',
    text: 'finetuning_type: lora\nlora_rank: eight\n',
    line: 'lf.yaml: lora_rank: expected a number, got eight',
  },
  { code: 'notBoolean', file: 'cmd', text: '--bf16 maybe', line: 'cmd: bf16: expected true or false, got maybe' },
  {
    code: 'notCount',
    file: 'tt.yaml',
    text: `${TORCHTUNE_LORA}batch_size: 0\n`,
    line: 'tt.yaml: batch_size: expected a whole number of at least 1, got 0',
  },
  { code: 'notText', file: 'lf.yaml', text: 'finetuning_type: 3\n', line: 'lf.yaml: finetuning_type: expected text, got 3' },
  {
    code: 'notNames',
    file: 'lf.yaml',
    text: 'finetuning_type: lora\nlora_target: [1, 2]\n',
    line: 'lf.yaml: lora_target: expected a list of names, got [1,2]',
  },
  {
    code: 'notAChoice',
    file: 'lf.yaml',
    text: 'finetuning_type: qlora\n',
    line: 'lf.yaml: finetuning_type: expected lora, oft, freeze or full, got qlora',
  },
  {
    code: 'notAChoice',
    file: 'lf.yaml',
    text: 'finetuning_type: lora\nflash_attn: fa4\n',
    line: 'lf.yaml: flash_attn: expected auto, disabled, sdpa, fa2 or fa3, got fa4',
  },
  {
    code: 'notAChoice',
    file: 'lf.yaml',
    text: 'finetuning_type: lora\nquantization_bit: 4\nquantization_type: int4\n',
    line: 'lf.yaml: quantization_type: expected nf4 or fp4, got int4',
  },
  {
    code: 'notAChoice',
    file: 'ds.json',
    text: '{"zero_optimization": {"stage": 4}}',
    line: 'ds.json: zero_optimization.stage: expected 0, 1, 2 or 3, got 4',
  },
  {
    code: 'notAChoice',
    file: 'ds.json',
    text: '{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "disk"}}}',
    line: 'ds.json: zero_optimization.offload_optimizer.device: expected none, cpu or nvme, got disk',
  },
  {
    code: 'notAChoice',
    file: 'acc.yaml',
    text: 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 5\n',
    line: 'acc.yaml: deepspeed_config.zero_stage: expected 0, 1, 2 or 3, got 5',
  },
  {
    code: 'notAChoice',
    file: 'ta.json',
    text: '{"output_dir": "x", "torch_dtype": "int8"}',
    line: 'ta.json: torch_dtype: expected float32, bfloat16, float16 or auto, got int8',
  },
  {
    code: 'notAChoice',
    file: 'tt.yaml',
    text: `${TORCHTUNE_LORA}dtype: fp16\n`,
    line: 'tt.yaml: dtype: expected bf16 or fp32, got fp16',
  },
  {
    code: 'notAChoice',
    file: 'ax.yaml',
    text: 'base_model: x\nbf16: maybe\n',
    line: 'ax.yaml: bf16: expected true, false or auto, got maybe',
  },
  {
    code: 'notAChoice',
    file: 'ax.yaml',
    text: 'base_model: x\ngradient_checkpointing: sometimes\n',
    line: 'ax.yaml: gradient_checkpointing: expected true, false, offload or offload_disk, got sometimes',
  },
  {
    code: 'notAChoice',
    file: 'un.yaml',
    text: 'get_peft_model:\n  use_gradient_checkpointing: always\n',
    line: 'un.yaml: get_peft_model.use_gradient_checkpointing: expected true, false or "unsloth", got "always"',
  },
  {
    code: 'notAChoice',
    file: 'tt.toml',
    text: '[job]\ndump_folder = "x"\n[training]\nmixed_precision_param = "float16"\n',
    line: 'tt.toml: training.mixed_precision_param: expected bfloat16 or float32, got float16',
  },
  {
    code: 'notAChoice',
    file: 'tt.toml',
    text: '[job]\ndump_folder = "x"\n[activation_checkpoint]\nmode = "partial"\n',
    line: 'tt.toml: activation_checkpoint.mode: expected none, selective, full or memory_budget, got partial',
  },
  {
    code: 'notAChoice',
    file: 'tt.toml',
    text: '[job]\ndump_folder = "x"\n[optimizer]\nimplementation = "loop"\n',
    line: 'tt.toml: optimizer.implementation: expected for-loop, foreach or fused, got loop',
  },
  {
    code: 'notOneOf',
    file: 'acc.yaml',
    text: 'distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: HALF_SHARD\n',
    line: 'acc.yaml: fsdp_config.fsdp_sharding_strategy: expected one of FULL_SHARD, SHARD_GRAD_OP, NO_SHARD, HYBRID_SHARD, HYBRID_SHARD_ZERO2',
  },
  {
    code: 'dropoutRange',
    file: 'lf.yaml',
    text: 'finetuning_type: lora\nlora_dropout: 1.5\n',
    line: 'lf.yaml: lora_dropout: expected a dropout probability in [0, 1), got 1.5',
  },
  {
    code: 'shardDegree',
    file: 'tt.toml',
    text: '[parallelism]\ndata_parallel_shard_degree = 0\n',
    line: 'tt.toml: parallelism.data_parallel_shard_degree: expected -1 or a whole number, got 0',
  },
  {
    code: 'shardDim',
    file: 'tt.yaml',
    text: `${TORCHTUNE_LORA}data_parallel_shard_dim: 0\n`,
    line: 'tt.yaml: data_parallel_shard_dim: expected a whole number or -1, got 0',
  },
  {
    code: 'shardDim',
    file: 'tt.yaml',
    text: `${TORCHTUNE_LORA}data_parallel_shard_dim: 1.5\n`,
    line: 'tt.yaml: data_parallel_shard_dim: expected a whole number or -1, got 1.5',
  },
  {
    code: 'selectiveAcOption',
    file: 'tt.toml',
    text: '[job]\ndump_folder = "x"\n[activation_checkpoint]\nmode = "selective"\nselective_ac_option = "ops"\n',
    line: 'tt.toml: activation_checkpoint.selective_ac_option: expected op or a whole number, got ops',
  },
  {
    code: 'globalBatch',
    file: 'tt.toml',
    text: '[training]\nlocal_batch_size = 4\nglobal_batch_size = 10\n[parallelism]\ndata_parallel_shard_degree = 2\n',
    line: 'tt.toml: training.global_batch_size: 10 is not a multiple of local_batch_size × data-parallel degree (8)',
  },
  {
    code: 'bothHalves',
    file: 'ta.json',
    text: '{"bf16": true, "fp16": true}',
    line: 'ta.json: fp16: bf16 and fp16 are both true; TrainingArguments refuses the pair',
  },
  {
    code: 'unknownModules',
    file: 'tt.yaml',
    text: `${TORCHTUNE_LORA}  lora_attn_modules: [q_proj, foo_proj, bar_proj]\n`,
    line: 'tt.yaml: model.lora_attn_modules: unknown modules foo_proj, bar_proj',
  },
  {
    code: 'hybridNeedsProcesses',
    file: 'acc.yaml',
    text: 'distributed_type: FSDP\nnum_machines: 2\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
    line: 'acc.yaml: num_processes: fsdp_config.fsdp_sharding_strategy on 2 machines needs the process count',
  },
  {
    code: 'processesByMachines',
    file: 'acc.yaml',
    text: 'distributed_type: FSDP\nnum_machines: 2\nnum_processes: 3\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
    line: 'acc.yaml: num_machines: num_processes (3) must divide evenly over 2 machines for a hybrid shard',
  },
  {
    code: 'replicateNeedsShard',
    file: 'acc.yaml',
    text: 'distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_replicate_size: 2\n',
    line: 'acc.yaml: parallelism_config.parallelism_config_dp_shard_size: dp_replicate_size > 1 needs dp_shard_size (HSDP)',
  },
];
