/** Optimizer state sizes (the "K" of the ZeRO paper) per optimizer, and what its step allocates on top. */
import { isHeadTied, linearLayers } from './linear-layers.ts';
import type { ModelConfig } from './model.ts';
import { countParams } from './params.ts';
import { PRECISION_BYTES, type Precision } from './precision.ts';

/**
 * Optimizer kind. torch.optim's `sgd`, `sgd-momentum` and `adamw`; bitsandbytes' `adamw-8bit`, `paged-adamw`,
 * `paged-adamw-8bit` and `lion`; torchao's `adamw-8bit-torchao`, `adamw-4bit-torchao` and `adamw-cpu-offload`;
 * Hugging Face's `adafactor`.
 */
export type OptimizerKind =
  | 'sgd'
  | 'sgd-momentum'
  | 'adamw'
  | 'adamw-8bit'
  | 'paged-adamw'
  | 'paged-adamw-8bit'
  | 'adamw-8bit-torchao'
  | 'adamw-4bit-torchao'
  | 'adamw-cpu-offload'
  | 'adafactor'
  | 'lion';

/** Every optimizer kind. */
export const OPTIMIZERS: readonly OptimizerKind[] = [
  'sgd',
  'sgd-momentum',
  'adamw',
  'adamw-8bit',
  'paged-adamw',
  'paged-adamw-8bit',
  'adamw-8bit-torchao',
  'adamw-4bit-torchao',
  'adamw-cpu-offload',
  'adafactor',
  'lion',
];

/**
 * How one moment is stored. `param`: like the parameter (torch.optim's `torch.zeros_like(p)`, so the precision's
 * moment dtype). `fp32`: always fp32 (bitsandbytes' 32-bit states, `get_state_buffer(p, dtype=torch.float32)`).
 * `blockwise`: `bits`-bit codes with one fp32 scale per `block` elements. `factored`: Adafactor's row and column
 * statistics in fp32 (the share of elements they keep is the model's, `factoredShare`).
 */
type MomentStorage =
  { kind: 'param' } | { kind: 'fp32' } | { kind: 'blockwise'; bits: 8 | 4; block: number } | { kind: 'factored' };

/** What an optimizer keeps and where. */
export interface OptimizerSpec {
  /** Moment tensors per parameter (Adafactor: its second-moment statistics). */
  moments: number;
  /** How each moment is stored. */
  storage: MomentStorage;
  /**
   * Whether the states are bitsandbytes paged tensors (`F.get_paged`: cudaMallocManaged, for tensors of 10^5 elements
   * or more): counted on the GPU while resident, which is what nvidia-smi shows; under memory pressure the driver
   * evicts pages to the host instead of failing, and torch.cuda.memory_allocated() never sees them.
   */
  paged: boolean;
  /** Whether the states and the step live on the host (torchao CPUOffloadOptimizer). */
  onHost: boolean;
  /** Where the layout comes from (file and version read). */
  source: string;
}

/** bitsandbytes 0.50.2.dev0 (95f9af3) optim/optimizer.py Optimizer2State/Optimizer1State `init_state`. */
const BNB = 'bitsandbytes 0.50.2.dev0 95f9af3 optim/optimizer.py init_state';
/** torchao 0.19.0 (36027d8) optim/adam.py, subclass_8bit.py, subclass_4bit.py, cpu_offload.py. */
const TORCHAO = 'torchao 0.19.0 36027d8 optim/';

/**
 * Every optimizer's states.
 * - bitsandbytes 8-bit: uint8 state1/state2 and one fp32 absmax per 256 values (`blocksize = 256` since 0.46.0,
 *   #1586; 2048 before, as in arXiv 2110.02861). Tensors under `min_8bit_size` = 4096 elements keep fp32 states: left
 *   out (norms and biases are a small share of any model this site describes).
 * - torchao AdamW8bit: uint8 codes and fp32 scale per `block_size=256`; AdamW4bit: packed 4-bit codes and fp32 scale per
 *   `block_size=128` (Trainer's `adamw_torch_4bit` passes 256). Like bitsandbytes, tensors under 4096 values stay
 *   full precision.
 * - Lion (bitsandbytes `Lion`, Trainer's `lion_32bit`): one fp32 moment (arXiv 2302.06675, Alg. 2).
 * - Adafactor (transformers 005edac optimization.py, Trainer's `adafactor`: `beta1=None`): no first moment; for a
 *   matrix, row and column means of the squared gradient (`exp_avg_sq_row`, `exp_avg_sq_col`), a full `exp_avg_sq` for
 *   vectors; all `.to(grad)` after `grad.float()`, so fp32 (arXiv 1804.04235 §3).
 * - torchao CPUOffloadOptimizer: `torch.optim.AdamW(fused=True)` over pinned host copies of each parameter and its
 *   gradient (`p_host = torch.empty_like(p_device, device="cpu", pin_memory=True)`), moments like the parameter.
 */
export const OPTIMIZER_SPECS: Readonly<Record<OptimizerKind, OptimizerSpec>> = {
  sgd: { moments: 0, storage: { kind: 'param' }, paged: false, onHost: false, source: 'torch.optim.SGD: no state' },
  'sgd-momentum': {
    moments: 1,
    storage: { kind: 'param' },
    paged: false,
    onHost: false,
    source: 'torch.optim.SGD: momentum_buffer = torch.clone(grad)',
  },
  adamw: {
    moments: 2,
    storage: { kind: 'param' },
    paged: false,
    onHost: false,
    source: 'torch/optim/adamw.py _init_group: exp_avg, exp_avg_sq = torch.zeros_like(p) (arXiv 1412.6980)',
  },
  'adamw-8bit': {
    moments: 2,
    storage: { kind: 'blockwise', bits: 8, block: 256 },
    paged: false,
    onHost: false,
    source: `${BNB}: state1/state2 uint8, absmax1/absmax2 fp32 per 256 (arXiv 2110.02861)`,
  },
  'paged-adamw': {
    moments: 2,
    storage: { kind: 'fp32' },
    paged: true,
    onHost: false,
    source: `${BNB}: PagedAdamW32bit, fp32 state1/state2 from F.get_paged (cudaMallocManaged)`,
  },
  'paged-adamw-8bit': {
    moments: 2,
    storage: { kind: 'blockwise', bits: 8, block: 256 },
    paged: true,
    onHost: false,
    source: `${BNB}: PagedAdamW8bit, uint8 states from F.get_paged and fp32 absmax per 256`,
  },
  'adamw-8bit-torchao': {
    moments: 2,
    storage: { kind: 'blockwise', bits: 8, block: 256 },
    paged: false,
    onHost: false,
    source: `${TORCHAO}adam.py AdamW8bit(block_size=256), subclass_8bit.py OptimState8bit.zeros: uint8 codes, fp32 scale per block`,
  },
  'adamw-4bit-torchao': {
    moments: 2,
    storage: { kind: 'blockwise', bits: 4, block: 128 },
    paged: false,
    onHost: false,
    source: `${TORCHAO}adam.py AdamW4bit(block_size=128), subclass_4bit.py OptimState4bit.zeros: packed 4-bit codes, fp32 scale per block`,
  },
  'adamw-cpu-offload': {
    moments: 2,
    storage: { kind: 'param' },
    paged: false,
    onHost: true,
    source: `${TORCHAO}cpu_offload.py CPUOffloadOptimizer: fused AdamW on pinned host copies of the parameters and gradients`,
  },
  adafactor: {
    moments: 1,
    storage: { kind: 'factored' },
    paged: false,
    onHost: false,
    source: 'transformers 005edac optimization.py Adafactor.step: exp_avg_sq_row + exp_avg_sq_col in fp32 (arXiv 1804.04235)',
  },
  lion: {
    moments: 1,
    storage: { kind: 'fp32' },
    paged: false,
    onHost: false,
    source: `${BNB}: Lion (Optimizer1State, optim_bits=32), one fp32 state (arXiv 2302.06675)`,
  },
};

/** How many moment tensors `optimizer` keeps per parameter (SGD none, momentum, Lion and Adafactor one, Adam two). */
export function momentCount(optimizer: OptimizerKind): number {
  return OPTIMIZER_SPECS[optimizer].moments;
}

/**
 * Bytes per parameter of `optimizer`'s moments when torch.optim would keep them in `paramMomentBytes` per element
 * (the precision's moment dtype, or the LoRA adapters'). `factoredShare`: Adafactor's state elements per parameter
 * (`adafactorStateShare`); ignored by the others. A fraction for the block-wise formats: multiply by a count, then round up.
 */
export function momentBytesPerParam(optimizer: OptimizerKind, paramMomentBytes: number, factoredShare: number): number {
  const spec = OPTIMIZER_SPECS[optimizer];
  const storage = spec.storage;
  const perMoment =
    storage.kind === 'param'
      ? paramMomentBytes
      : storage.kind === 'fp32'
        ? 4
        : storage.kind === 'factored'
          ? 4 * factoredShare
          : storage.bits / 8 + 4 / storage.block;
  return spec.moments * perMoment;
}

/** Bytes per parameter the optimizer's states take, split into master weights and moments. */
export interface OptimizerBytes {
  /** fp32 master weights kept by the optimizer (mixed precision only), bytes per parameter. */
  master: number;
  /** Moment tensors (momentum, variance), bytes per parameter (a fraction for block-wise formats). */
  moments: number;
  /** master + moments: the ZeRO paper's K. */
  total: number;
}

/**
 * Optimizer bytes per parameter of a full fine-tune at `precision`. Adam keeps m and v (2 × 4 bytes); mixed precision
 * adds a 4-byte fp32 master copy, so K = 12 (arXiv 1910.02054 §3.1); the other optimizers as OPTIMIZER_SPECS says.
 * `factoredShare` as for `momentBytesPerParam` (1, the unfactored bound, when no shape is known).
 */
export function optimizerBytesPerParam(optimizer: OptimizerKind, precision: Precision, factoredShare = 1): OptimizerBytes {
  const regime = PRECISION_BYTES[precision];
  const moments = momentBytesPerParam(optimizer, regime.momentBytes, factoredShare);
  const master = regime.masterWeights ? 4 : 0;
  return { master, moments, total: master + moments };
}

/** PyTorch optimizer implementation (torch.optim `foreach=` / `fused=` arguments). */
export type OptimizerImpl = 'foreach' | 'fused' | 'for-loop';

/** Every optimizer implementation. */
export const OPTIMIZER_IMPLS: readonly OptimizerImpl[] = ['foreach', 'fused', 'for-loop'];

/** Inputs of the optimizer step's temporaries. */
export interface OptimizerStepShape {
  optimizer: OptimizerKind;
  impl: OptimizerImpl;
  /** Parameters whose states this GPU updates (its optimizer shard). */
  params: number;
  /** Largest single parameter tensor among them, elements. */
  largestTensor: number;
  /** Bytes per element of the moments. */
  momentBytes: number;
  /** Bytes per element of the parameters (2 for a 16-bit parameter, which Adafactor upcasts). */
  paramBytes: number;
}

/**
 * Bytes the optimizer step allocates on the GPU beyond the states it updates in place.
 * AdamW `foreach` (torch/optim/adamw.py `_multi_tensor_adamw`) computes `exp_avg_sq_sqrt = torch._foreach_sqrt(v)`,
 * a second copy of v for every parameter at once; `for-loop` (`_single_tensor_adamw`) builds
 * `denom = (v.sqrt() / bias_correction2_sqrt)` one parameter at a time (two temporaries of its size at the
 * division); `fused` (`_fused_adamw`) runs one kernel per tensor group with none. Adafactor (transformers
 * optimization.py `Adafactor.step`, one parameter at a time) holds `grad**2 + eps` while making it (two fp32 tensors
 * of the parameter's size), and fp32 copies of a 16-bit gradient and parameter. SGD with momentum, bitsandbytes'
 * kernels and torchao's compiled `single_param_adam` (one fused kernel per parameter) update in place; the CPU-offload
 * optimizer steps on the host.
 */
export function optimizerStepTemporaryBytes(shape: OptimizerStepShape): number {
  const largest = Math.min(shape.largestTensor, shape.params);
  if (shape.optimizer === 'adafactor') return (2 * 4 + (shape.paramBytes < 4 ? 2 * 4 : 0)) * largest;
  if (shape.optimizer !== 'adamw') return 0;
  if (shape.impl === 'fused') return 0;
  if (shape.impl === 'foreach') return shape.params * shape.momentBytes;
  return 2 * largest * shape.momentBytes;
}

/**
 * Adafactor's state elements per parameter of `model`: a matrix keeps its row and column statistics (out + in), a
 * vector its full square (`_get_options`: `factored = len(param_shape) >= 2`). The Linear weights and the token
 * embedding are the matrices; position tables are counted as vectors (an upper bound).
 */
export function adafactorStateShare(model: ModelConfig): number {
  const counts = countParams(model);
  let matrices = 0;
  let factored = 0;
  for (const linear of linearLayers(model)) {
    if (isHeadTied(model, linear)) continue;
    matrices += linear.inFeatures * linear.outFeatures * linear.copies;
    factored += (linear.inFeatures + linear.outFeatures) * linear.copies;
  }
  if (counts.tokenEmbedding > 0) {
    matrices += counts.tokenEmbedding;
    factored += model.vocab + model.hidden;
  }
  return (factored + Math.max(0, counts.total - matrices)) / counts.total;
}
