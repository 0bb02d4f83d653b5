/**
 * What the cross-entropy loss keeps for backward and holds for a moment, per implementation. For a large vocabulary
 * this is often the step's peak, and it is what the fused and chunked losses exist to cut.
 */
import { ceilDiv } from './ceil-div.ts';

/**
 * The loss implementation.
 * - `eager`: Hugging Face's causal-LM loss (transformers `loss/loss_utils.py` `ForCausalLMLoss`): `logits.float()`, then
 *   `F.cross_entropy`, which keeps its fp32 log-softmax.
 * - `vocab-parallel`: Megatron-LM's fused vocab-parallel cross-entropy (`tensor_parallel/cross_entropy.py`): the fp32
 *   logits become the softmax in place and the gradient is computed in place.
 * - `in-place`: Unsloth's Triton `Fast_CrossEntropyLoss` (unsloth 015bdef kernels/cross_entropy_loss.py): keeps the
 *   16-bit logits and an fp32 logsumexp per row (`ctx.save_for_backward(logits, logsumexp, labels)`) and writes the
 *   gradient into the logits.
 * - `flash-attn`: flash-attn's Triton `CrossEntropyLoss` with its default `inplace_backward=False` (flash-attention
 *   058ad35 flash_attn/ops/triton/cross_entropy.py; llm-foundry's `fused_crossentropy`): keeps the 16-bit logits and an
 *   fp32 lse per row (`ctx.save_for_backward(logits, lse, labels)`), and backward writes the gradient into a new tensor
 *   (`dlogits = logits if ctx.inplace_backward else torch.empty_like(logits)`).
 * - `chunked`: torchtune's `CEWithChunkedOutputLoss` / `LinearCrossEntropyLoss` (torchtune 0.7.0
 *   modules/loss/ce_chunked_output_loss.py, cross_entropy_loss.py, `num_output_chunks=8`): the logits are made and
 *   upcast one chunk of tokens at a time, but every chunk's fp32 log-softmax is kept for backward.
 * - `fused-linear`: Liger-Kernel's `LigerFusedLinearCrossEntropyLoss` (Liger 0.8.2 ops/fused_linear_cross_entropy.py):
 *   the head and the loss together, chunk by chunk of tokens, with the input gradient computed in forward; no logits
 *   are kept.
 * - `cut`: Cut Cross-Entropy (apple/ml-cross-entropy 3a79837 cut_cross_entropy/cce.py `LinearCrossEntropyFunction`):
 *   logits computed block by block in on-chip memory; keeps the head input and an fp32 log-sum-exp per token.
 */
export type LossKind = 'eager' | 'vocab-parallel' | 'in-place' | 'flash-attn' | 'chunked' | 'fused-linear' | 'cut';

/** Every loss implementation. */
export const LOSS_KINDS: readonly LossKind[] = [
  'eager',
  'vocab-parallel',
  'in-place',
  'flash-attn',
  'chunked',
  'fused-linear',
  'cut',
];

/** torchtune's `num_output_chunks` default (CEWithChunkedOutputLoss and LinearCrossEntropyLoss). */
export const TORCHTUNE_LOSS_CHUNKS = 8;

/** Inputs of the loss's memory. */
export interface LossShape {
  /** The implementation. */
  kind: LossKind;
  /** Positions whose logits are computed: s·b for a language model, b for a classifier. */
  positions: number;
  /** Vocabulary (or class count) V. */
  vocab: number;
  /** Hidden size h: the head's input width. */
  hidden: number;
  /** Bytes per element of the logits as the head produces them (the compute dtype e). */
  logitBytes: number;
  /** Tensor-parallel degree t (vocab-parallel logits are split by t). */
  tp: number;
}

/** The loss's bytes at the moments it holds them. */
export interface LossBytes {
  /** Kept from the loss's forward until the start of backward. */
  kept: number;
  /** Transient during the forward loss, beside `kept`. */
  forward: number;
  /** Transient at the start of backward, beside `kept`. */
  backward: number;
}

/**
 * Liger's token chunk: `inc_factor = cdiv(V, H)`, `chunk_size = next_power_of_2(cdiv(BT, inc_factor))`, so that a
 * chunk's logits are about the size of the input (Liger 0.8.2 fused_linear_cross_entropy.py).
 */
function ligerChunkRows(positions: number, vocab: number, hidden: number): number {
  const rows = ceilDiv(positions, ceilDiv(vocab, hidden));
  return Math.min(positions, 2 ** Math.ceil(Math.log2(Math.max(1, rows))));
}

/**
 * The loss's kept and transient bytes. N = positions·V/t logits, e bytes each.
 * - eager: keeps the fp32 log-softmax (4N, Korthikanti et al. 2022 §4.3's 4sbv/t); forward holds the logits and
 *   their fp32 upcast (e·N + 4N; none when e = 4); backward the log-softmax's gradient and the logits' fp32 gradient
 *   (8N).
 * - vocab-parallel: keeps 4N; only the 16-bit logits or their 16-bit gradient beside it.
 * - in-place: keeps the e-byte logits and 4 B per position; nothing beside them.
 * - flash-attn: keeps the same; backward holds the logits' e-byte gradient (e·N) beside them.
 * - chunked (C chunks): keeps 4N; forward holds one chunk's logits and upcast ((e + 4)·N/C), backward one chunk's two
 *   fp32 gradients and its e-byte gradient ((8 + e)·N/C).
 * - fused-linear: keeps the input gradient (e per position and hidden unit); forward holds one chunk's e-byte logits.
 * - cut: keeps the head input (e·positions·h) and 4 B per position; its blocks live in on-chip memory.
 */
export function lossBytes(shape: LossShape): LossBytes {
  const { kind, positions, vocab, hidden, logitBytes: e, tp } = shape;
  const logits = ceilDiv(positions * vocab, tp);
  const upcast = e === 4 ? 0 : 4 * logits;
  switch (kind) {
    case 'eager':
      return { kept: 4 * logits, forward: e * logits + upcast, backward: 8 * logits };
    case 'vocab-parallel':
      return { kept: 4 * logits, forward: e === 4 ? 0 : e * logits, backward: e === 4 ? 0 : e * logits };
    case 'in-place':
      return { kept: e * logits + 4 * positions, forward: 0, backward: 0 };
    case 'flash-attn':
      return { kept: e * logits + 4 * positions, forward: 0, backward: e * logits };
    case 'chunked': {
      const chunk = ceilDiv(logits, TORCHTUNE_LOSS_CHUNKS);
      return { kept: 4 * logits, forward: (e + (e === 4 ? 0 : 4)) * chunk, backward: (8 + e) * chunk };
    }
    case 'fused-linear': {
      const rows = ligerChunkRows(positions, vocab, hidden);
      return { kept: e * positions * hidden, forward: e * ceilDiv(rows * vocab, tp), backward: 0 };
    }
    case 'cut':
      return { kept: e * positions * hidden + 4 * positions, forward: 0, backward: 0 };
  }
}

/** Whether the loss runs the output layer itself (so the head keeps no input of its own). */
export function lossOwnsHead(kind: LossKind): boolean {
  return kind === 'fused-linear' || kind === 'cut';
}
