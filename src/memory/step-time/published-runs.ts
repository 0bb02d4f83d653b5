/**
 * Published training runs with their whole configuration and a measured step, the step-time model's calibration data
 * (tests/unit/memory/step-time.published-runs.test.ts, `npm run bench -- planner`). Every option the step time reads is
 * given explicitly, so a change of the engine's defaults moves none of them.
 */
import type { EstimateOptions } from '../options.ts';

/** Whether a run fitted the compute-efficiency curve or is held out to report its error honestly. */
export type CalibrationRole = 'fit' | 'held-out';

/** One published training run. */
export interface PublishedRun {
  /** Stable id, e.g. `mpt-7b-h100-8`. */
  readonly id: string;
  /** What was trained, in the source's words. */
  readonly label: string;
  /** GPUs in the run: dp × tp × pp of `options`. */
  readonly gpus: number;
  /** Sequences per optimizer step: microBatch × gradAccum × dp of `options`. */
  readonly globalBatch: number;
  /** The configuration as engine options, every option the step time reads given. */
  readonly options: EstimateOptions;
  /** Measured seconds per optimizer step, derived from the published figure as `measured` says. */
  readonly measuredStepSeconds: number;
  /** The published figure and how the step follows from it. */
  readonly measured: string;
  /** Where it is published: URL with commit or version, and table and row. */
  readonly source: string;
  /** Whether it fits the compute-efficiency curve or is held out. */
  readonly role: CalibrationRole;
  /** The source's own parameter count for the run, where it prints one; else null. */
  readonly publishedParams: number | null;
}

const LLM_FOUNDRY_README =
  'https://github.com/mosaicml/llm-foundry/blob/495218376830947dce625efabc4d86be7c47cc45/scripts/train/benchmarking/README.md';

/** MPT's shapes: scripts/train/yamls/pretrain/mpt-<size>.yaml (llm-foundry 8c8dd48): d_model, n_layers, n_heads. */
const MPT_SHAPES = {
  '125m': { hidden: 768, layers: 12, heads: 12 },
  '350m': { hidden: 1024, layers: 24, heads: 16 },
  '760m': { hidden: 1536, layers: 24, heads: 12 },
  '1b': { hidden: 2048, layers: 24, heads: 16 },
  '3b': { hidden: 2560, layers: 32, heads: 20 },
  '7b': { hidden: 4096, layers: 32, heads: 32 },
  '13b': { hidden: 5120, layers: 40, heads: 40 },
  '30b': { hidden: 7168, layers: 48, heads: 56 },
  '70b': { hidden: 8192, layers: 80, heads: 64 },
} as const;

/** One row of llm-foundry's MPT benchmark tables. */
interface MptRow {
  size: keyof typeof MPT_SHAPES;
  gpu: 'h100-80gb' | 'a100-80gb';
  gpus: number;
  seq: number;
  microBatch: number;
  gradAccum: number;
  /** "Activation Checkpointing" column. */
  checkpointing: boolean;
  /** "Sharding Strategy": FULL_SHARD (ZeRO-3) or SHARD_GRAD_OP (ZeRO-2). */
  sharding: 'FULL_SHARD' | 'SHARD_GRAD_OP';
  /** "Throughput (T/s)": tokens per second of the whole run. */
  tokensPerSecond: number;
  /** "NumParams": the run's parameter count (learned positions make it grow with the sequence). */
  numParams: number;
  /** The table's heading and the row's MFU, to find it. */
  table: string;
  mfu: number;
  role: CalibrationRole;
}

/**
 * A row of llm-foundry's tables as a run, as llm-foundry 4952183 ran it. Shapes: scripts/train/yamls/pretrain/mpt-*.yaml
 * (`vocab_size: 50368`, `expansion_ratio: 4`); GPT-style blocks with biases and learned positions of `max_seq_len` rows
 * (llmfoundry/models/mpt/configuration_mpt.py defaults `no_bias=False`, `learned_pos_emb=True`, `alibi` off; the yamls
 * set neither), which the table's NumParams column confirms to the parameter. The rest, from the same sources:
 * - precision: the table's "MP Mode" is DEFAULT for every row (submit_benchmarks.py `mod_parameters` default), which
 *   Composer's `get_mixed_precision` (composer/distributed/mosaic_parallelism.py, 1b7ba47; llm-foundry pins mosaicml
 *   0.21) makes `param_dtype` bf16, `reduce_dtype` fp32: FSDP gathers bf16 weights over fp32 shards, so autocast has
 *   nothing to cast and the residual stream is bf16 — the engine's `mixed-bf16` (16-bit weights over an fp32 master);
 * - dropout off: `attn_pdrop`, `resid_pdrop`, `emb_pdrop` default to 0.0 (configuration_mpt.py);
 * - layers: `nn.GELU(approximate='none')` (llmfoundry/models/layers/ffn.py `_FFN_ACT_FN_DEFAULT`), not GPT-2's Python
 *   `gelu_new` that the engine's eager GPT-2 counts, flash attention (`attn_impl: flash`), and LPLayerNorm keeping its
 *   bf16 input (`norm_type: low_precision_layernorm`): Korthikanti et al.'s term set, plus the padded copy of the
 *   attention output that `flash_attn_fn` (llmfoundry/models/layers/attention.py) makes: the engine's `llm-foundry`
 *   kernels (activations.ts fusedLayerTerms);
 * - loss: `loss_fn` defaults to `fused_crossentropy`, flash-attn's Triton CrossEntropyLoss (modeling_mpt.py
 *   `ComposerMPTCausalLM`), the engine's `flash-attn` loss;
 * - Composer's DecoupledAdamW with fp32 moments; FULL_SHARD is ZeRO-3 and SHARD_GRAD_OP ZeRO-2; activation
 *   checkpointing wraps every block (full recompute).
 */
function mpt(row: MptRow): PublishedRun {
  const globalBatch = row.microBatch * row.gradAccum * row.gpus;
  const tokens = globalBatch * row.seq;
  return {
    id: `mpt-${row.size}-${row.gpu}-${row.gpus}-seq${row.seq}`,
    label: `MPT-${row.size}, ${row.gpus} × ${row.gpu}, seq ${row.seq}`,
    gpus: row.gpus,
    globalBatch,
    options: {
      arch: 'gpt2',
      ...MPT_SHAPES[row.size],
      vocab: 50368,
      positions: row.seq,
      ffn: 4 * MPT_SHAPES[row.size].hidden,
      stack: 'pytorch',
      precision: 'mixed-bf16',
      optimizer: 'adamw',
      optimizerImpl: 'for-loop',
      attention: 'sdpa',
      kernels: 'llm-foundry',
      dropout: false,
      loss: 'flash-attn',
      recompute: row.checkpointing ? 'full' : 'none',
      seq: row.seq,
      microBatch: row.microBatch,
      gradAccum: row.gradAccum,
      dp: row.gpus,
      zero: row.sharding === 'FULL_SHARD' ? 3 : 2,
      tp: 1,
      pp: 1,
      gpu: row.gpu,
    },
    measuredStepSeconds: tokens / row.tokensPerSecond,
    measured: `${row.tokensPerSecond} tokens/s over ${row.gpus} GPUs (MFU ${row.mfu} %): step = ${globalBatch} × ${row.seq} tokens ÷ that`,
    source: `${LLM_FOUNDRY_README}, table "${row.table}", row ${row.size} / seq ${row.seq} / ${row.gpus} GPUs`,
    role: row.role,
    publishedParams: row.numParams,
  };
}

const H100 = 'H100 80GB BF16';
const H100_LARGE = 'H100 80GB BF16 (Large Scale, >= 128 GPUs)';
const A100 = 'A100 80GB with 1600 Gbps node-node interconnect (RoCE)';

/** torchtitan's benchmark file, torchtitan 9dec370 with torch 1963fc8 (2024-12). */
const TORCHTITAN_BENCHMARK =
  'https://github.com/pytorch/torchtitan/blob/31a17bfdb70bab6f62a13d21816a5339b911d6e3/benchmarks/llama3_h100_202412_torchtitan.md';

/**
 * torchtitan's Llama 3.1 8B with FSDP alone, eager (no torch.compile, no Float8): train_configs/llama3_8b.toml,
 * seq_len 8192, activation_checkpoint mode 'selective' with selective_ac_option 'op', AdamW; FSDP2 with bf16 parameters
 * and fp32 gradient reduction, which the engine's amp-bf16 counts (fp32 weights, 16-bit compute). On the file's
 * hardware, the 96 GB HBM2e, 500 W H100s of its "Hardware" list: the `h100-96gb` preset.
 */
function torchtitan8b(gpus: number, tokensPerSecondPerGpu: number, table: string, role: CalibrationRole): PublishedRun {
  const microBatch = 2;
  const seq = 8192;
  return {
    id: `torchtitan-llama3.1-8b-h100-${gpus}`,
    label: `torchtitan Llama 3.1 8B, FSDP, ${gpus} × H100`,
    gpus,
    globalBatch: microBatch * gpus,
    options: {
      model: 'llama-3.1-8b',
      stack: 'pytorch',
      precision: 'amp-bf16',
      optimizer: 'adamw',
      optimizerImpl: 'fused',
      attention: 'sdpa',
      kernels: 'eager',
      recompute: 'op',
      seq,
      microBatch,
      gradAccum: 1,
      dp: gpus,
      zero: 3,
      tp: 1,
      pp: 1,
      gpu: 'h100-96gb',
    },
    measuredStepSeconds: (microBatch * seq) / tokensPerSecondPerGpu,
    measured: `${tokensPerSecondPerGpu} tokens/s per GPU (row "FSDP"): step = local batch 2 × 8192 tokens ÷ that`,
    source: `${TORCHTITAN_BENCHMARK}, ${table}, row FSDP`,
    role,
    publishedParams: null,
  };
}

/**
 * BLOOM-176B's training (bigscience-workshop/bigscience, train/tr11-176B-ml/README.md at 00327f8): 384 A100 80GB,
 * TP 4, PP 12, DP 8, micro-batch 2, global batch 2048, seq 2048, 70 layers of width 14336 with 112 heads, vocabulary
 * 250,880 (padded), ALiBi, bf16 with fp32 master weights (BF16_Optimizer, its own ZeRO-1), apex FusedAdam, activation
 * checkpointing of every layer. The README's days-left formula prices a step at 105 s. Its network is 4 Omni-Path
 * links per 8-GPU node, slower than the A100 preset's 8 × HDR (the step is mostly compute and pipeline).
 */
const BLOOM_176B: PublishedRun = {
  id: 'bloom-176b-a100-384',
  label: 'BLOOM-176B, 384 × A100 80GB, TP 4 × PP 12 × DP 8',
  gpus: 384,
  globalBatch: 2048,
  options: {
    arch: 'gpt2',
    hidden: 14336,
    layers: 70,
    heads: 112,
    ffn: 4 * 14336,
    vocab: 250880,
    positions: 0,
    stack: 'pytorch',
    precision: 'amp-bf16',
    optimizer: 'adamw',
    optimizerImpl: 'fused',
    attention: 'eager',
    kernels: 'fused',
    recompute: 'full',
    seq: 2048,
    microBatch: 2,
    gradAccum: 128,
    dp: 8,
    zero: 1,
    tp: 4,
    pp: 12,
    gpu: 'a100-80gb',
  },
  measuredStepSeconds: 105,
  measured:
    "105 s per iteration at global batch 2048: the README's days-left formula `105 * (341e9 - consumed) / (2048*2048*3600*24)`",
  source:
    'https://github.com/bigscience-workshop/bigscience/blob/00327f8c3533c39b3cc17013f0d0d2b770eb2bb9/train/tr11-176B-ml/README.md, "Task" and "Replica setup"',
  role: 'fit',
  publishedParams: null,
};

/** Every published run, in the order the bench prints them. */
export const PUBLISHED_RUNS: readonly PublishedRun[] = [
  mpt({
    size: '125m',
    gpu: 'a100-80gb',
    gpus: 8,
    seq: 2048,
    microBatch: 32,
    gradAccum: 2,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 1133901,
    numParams: 125311488,
    table: A100,
    mfu: 44.45,
    role: 'fit',
  }),
  mpt({
    size: '350m',
    gpu: 'a100-80gb',
    gpus: 8,
    seq: 2048,
    microBatch: 32,
    gradAccum: 2,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 470263,
    numParams: 355985408,
    table: A100,
    mfu: 51.62,
    role: 'held-out',
  }),
  mpt({
    size: '760m',
    gpu: 'h100-80gb',
    gpus: 16,
    seq: 2048,
    microBatch: 24,
    gradAccum: 1,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 1096819,
    numParams: 760470528,
    table: H100,
    mfu: 37.89,
    role: 'fit',
  }),
  mpt({
    size: '1b',
    gpu: 'h100-80gb',
    gpus: 8,
    seq: 2048,
    microBatch: 14,
    gradAccum: 1,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 363645,
    numParams: 1315950592,
    table: H100,
    mfu: 41.82,
    role: 'fit',
  }),
  mpt({
    size: '1b',
    gpu: 'h100-80gb',
    gpus: 512,
    seq: 2048,
    microBatch: 12,
    gradAccum: 1,
    checkpointing: false,
    sharding: 'SHARD_GRAD_OP',
    tokensPerSecond: 20396905,
    numParams: 1315950592,
    table: H100_LARGE,
    mfu: 36.65,
    role: 'held-out',
  }),
  mpt({
    size: '3b',
    gpu: 'h100-80gb',
    gpus: 16,
    seq: 2048,
    microBatch: 10,
    gradAccum: 3,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 386285,
    numParams: 2651837440,
    table: H100,
    mfu: 43.73,
    role: 'fit',
  }),
  mpt({
    size: '3b',
    gpu: 'a100-80gb',
    gpus: 8,
    seq: 8192,
    microBatch: 3,
    gradAccum: 6,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 61567,
    numParams: 2667566080,
    table: A100,
    mfu: 59.34,
    role: 'fit',
  }),
  mpt({
    size: '7b',
    gpu: 'h100-80gb',
    gpus: 8,
    seq: 2048,
    microBatch: 6,
    gradAccum: 1,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 85144,
    numParams: 6658859008,
    table: H100,
    mfu: 46.44,
    role: 'fit',
  }),
  mpt({
    size: '7b',
    gpu: 'h100-80gb',
    gpus: 8,
    seq: 4096,
    microBatch: 16,
    gradAccum: 2,
    checkpointing: true,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 68893,
    numParams: 6667247616,
    table: H100,
    mfu: 40.42,
    role: 'held-out',
  }),
  mpt({
    size: '7b',
    gpu: 'h100-80gb',
    gpus: 512,
    seq: 2048,
    microBatch: 6,
    gradAccum: 1,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 4951479,
    numParams: 6658859008,
    table: H100_LARGE,
    mfu: 42.2,
    role: 'fit',
  }),
  mpt({
    size: '7b',
    gpu: 'a100-80gb',
    gpus: 8,
    seq: 2048,
    microBatch: 6,
    gradAccum: 2,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 37130,
    numParams: 6658859008,
    table: A100,
    mfu: 64.23,
    role: 'fit',
  }),
  mpt({
    size: '13b',
    gpu: 'h100-80gb',
    gpus: 64,
    seq: 2048,
    microBatch: 2,
    gradAccum: 1,
    checkpointing: false,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 307209,
    numParams: 12853954560,
    table: H100,
    mfu: 39.86,
    role: 'fit',
  }),
  mpt({
    size: '13b',
    gpu: 'h100-80gb',
    gpus: 8,
    seq: 32768,
    microBatch: 1,
    gradAccum: 3,
    checkpointing: true,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 15812,
    numParams: 13011240960,
    table: H100,
    mfu: 31.68,
    role: 'held-out',
  }),
  mpt({
    size: '30b',
    gpu: 'h100-80gb',
    gpus: 32,
    seq: 2048,
    microBatch: 14,
    gradAccum: 3,
    checkpointing: true,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 73860,
    numParams: 29975214080,
    table: H100,
    mfu: 43.92,
    role: 'fit',
  }),
  mpt({
    size: '30b',
    gpu: 'a100-80gb',
    gpus: 8,
    seq: 2048,
    microBatch: 3,
    gradAccum: 21,
    checkpointing: true,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 7330,
    numParams: 29975214080,
    table: A100,
    mfu: 55.3,
    role: 'fit',
  }),
  mpt({
    size: '70b',
    gpu: 'h100-80gb',
    gpus: 64,
    seq: 2048,
    microBatch: 8,
    gradAccum: 4,
    checkpointing: true,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 66523,
    numParams: 64862437376,
    table: H100,
    mfu: 42.57,
    role: 'fit',
  }),
  mpt({
    size: '70b',
    gpu: 'h100-80gb',
    gpus: 512,
    seq: 2048,
    microBatch: 8,
    gradAccum: 1,
    checkpointing: true,
    sharding: 'FULL_SHARD',
    tokensPerSecond: 515636,
    numParams: 64862437376,
    table: H100_LARGE,
    mfu: 41.25,
    role: 'held-out',
  }),
  torchtitan8b(8, 5762, 'Table 1 (8 GPUs, local batch 2, selective activation checkpointing)', 'fit'),
  torchtitan8b(128, 5605, 'Table 3 (128 GPUs, local batch 2, selective activation checkpointing)', 'held-out'),
  BLOOM_176B,
];
