/**
 * How a micro-batch lays out its sequences, and what that changes: the token positions held (the peak), the
 * positions computed and the real tokens trained (the step time), and the attention mask a layout makes transformers
 * materialise.
 */
import type { Attention } from './activations.ts';

/**
 * `padded`: each sequence padded to the batch's longest, or to `max_length` (transformers' default collators);
 * `packed`: documents concatenated into rows of `--seq` tokens, every position real (TRL `packing=True`, LLaMA-Factory
 * `packing`/`neat_packing`, axolotl `sample_packing`, torchtune `dataset.packed`); `padding-free`: the batch's real
 * tokens concatenated into one row with no padding (transformers `DataCollatorWithFlattening`, TRL `padding_free=True`).
 */
export type Batching = 'padded' | 'packed' | 'padding-free';

/** Every batch layout. */
export const BATCHINGS: readonly Batching[] = ['padded', 'packed', 'padding-free'];

/** Where the layouts' rules come from, each with the version it was read at. */
export const BATCHING_SOURCES = {
  /**
   * sdpa and eager build a 4-D (b, 1, q, kv) mask whenever there is padding or packed position_ids: a boolean one for
   * sdpa, cast to the compute dtype for eager; FlashAttention gets none (a 2-D padding mask, or position_ids).
   */
  mask: 'transformers @00c4411 src/transformers/masking_utils.py create_causal_mask (find_packed_sequence_indices → packed_sequence_mask_function, allow_is_causal_skip=False), sdpa_mask (bool), eager_mask (torch.where to dtype), flash_attention_mask (None or 2-D)',
  /** TRL's padding-free collator flattens a batch into one row; it supports FlashAttention only. */
  paddingFree:
    'TRL 1.10.0.dev0 @f2cd577 trl/trainer/sft_config.py padding_free ("only supported with the FlashAttention 2 or 3"); sft_trainer.py:466-502 DataCollatorForLanguageModeling flattens the batch into one row with position_ids',
  /** Packing into rows of max_length; TRL's default bfd strategy turns padding-free on. */
  packing:
    'TRL 1.10.0.dev0 @f2cd577 trl/trainer/sft_config.py packing ("Uses max_length to define sequence length"); sft_trainer.py:1143 padding_free = padding_free or packing with bfd',
} as const;

/** Tokens of one micro-batch on one GPU: what is held, what is computed, what is trained. */
export interface BatchTokens {
  /** Token positions held at the worst batch (the peak): every sequence at `--seq` tokens. */
  held: number;
  /** Positions the layers compute for a typical batch: padding included when padded. */
  computed: number;
  /** Real tokens a typical batch trains (padding excluded). */
  trained: number;
  /** Mean tokens each token attends over in a typical batch (a causal span of the document it belongs to). */
  attentionSpan: number;
}

/**
 * The tokens of a micro-batch of `microBatch` sequences of at most `seq` tokens, of which `meanSeq` are real on average
 * (packed: the mean length of the documents packed into each row). The worst batch holds `microBatch × seq` positions
 * in every layout: padded sequences are padded to `seq` (or to the longest, which can be `seq`), packed rows are `seq`
 * long, and a padding-free row holds at most `microBatch` sequences truncated to `seq`. Padding is computed but not
 * trained; packed and padding-free batches attend within each document (FlashAttention's varlen kernel, or the
 * block-diagonal mask), which eager attention computes over the whole row.
 */
export function batchTokens(
  batching: Batching,
  microBatch: number,
  seq: number,
  meanSeq: number,
  attention: Attention,
): BatchTokens {
  const held = microBatch * seq;
  if (batching === 'padded') return { held, computed: held, trained: microBatch * meanSeq, attentionSpan: seq };
  if (batching === 'packed') return { held, computed: held, trained: held, attentionSpan: attention === 'eager' ? seq : meanSeq };
  const real = microBatch * meanSeq;
  return { held, computed: real, trained: real, attentionSpan: meanSeq };
}

/**
 * Bytes of the 4-D attention mask transformers materialises for one micro-batch at the worst batch (`microBatch`
 * sequences of `seq` tokens), or 0 when it builds none. With padding (`meanSeq < seq`) or packed rows, sdpa gets a
 * (b, 1, s, s) boolean mask and eager the same in the compute dtype (`computeBytes`). Packed and padding-free batches
 * under `sdpa` are counted as FlashAttention's varlen kernel, which TRL requires for them and which takes position_ids
 * instead of a mask; a padding-free batch under eager attention is refused by the validator (one row of b·s tokens
 * would hold a (b·s)² mask and scores).
 */
export function attentionMaskBytes(
  batching: Batching,
  microBatch: number,
  seq: number,
  meanSeq: number,
  attention: Attention,
  computeBytes: number,
): number {
  const square = microBatch * seq * seq;
  if (batching === 'padded') {
    if (meanSeq >= seq) return 0;
    return attention === 'sdpa' ? square : square * computeBytes;
  }
  return batching === 'packed' && attention === 'eager' ? square * computeBytes : 0;
}
