/**
 * The tiny decoder-only transformer demo (GPT-2 layout, pre-LayerNorm): token + learned position
 * embeddings, L blocks of causal multi-head self-attention and a GELU MLP (4h), a final
 * LayerNorm and an untied LM head, trained with next-token cross-entropy.
 *
 * Fixed per file: hidden, heads, seq (the causal mask is a [seq, seq] constant), vocab.
 * Dynamic: batch.
 */
import type { GraphBuilder } from './builder.ts';
import { gelu, layerNorm, linear } from './layers.ts';
import { BATCH_DIM, type LayeredModel, type ModelContext, type Stage } from './model.ts';
import * as op from './ops.ts';
import type { ParamSpec } from './params.ts';
import { LABELS, LOGITS, TOKENS } from './tensor-names.ts';

/** Size of a tiny GPT demo model. */
export interface TinyGptSpec {
  /** Model width h (divisible by `heads`). */
  readonly hidden: number;
  /** Number of transformer blocks L. */
  readonly layers: number;
  /** Number of attention heads. */
  readonly heads: number;
  /** Sequence length (fixed: the causal mask is a constant). */
  readonly seq: number;
  /** Vocabulary size (byte-level: 256). */
  readonly vocab: number;
}

/** GPT-2 initialisation scale for weights. */
const INIT_STD = 0.02;
/** Additive mask value: large enough to zero a softmax weight, small enough for fp16. */
const MASK_VALUE = -1e4;

function normal(name: string, shape: number[], std = INIT_STD): ParamSpec {
  return { name, shape, init: { kind: 'normal', std } };
}
const zeros = (name: string, shape: number[]): ParamSpec => ({ name, shape, init: { kind: 'zeros' } });
const ones = (name: string, shape: number[]): ParamSpec => ({ name, shape, init: { kind: 'ones' } });

function causalMask(b: GraphBuilder, seq: number, like: string): string {
  const values: number[] = [];
  for (let i = 0; i < seq; i++) for (let j = 0; j < seq; j++) values.push(j <= i ? 0 : MASK_VALUE);
  return b.constant(values, b.info(like).dtype, [seq, seq]);
}

function attention(ctx: ModelContext, spec: TinyGptSpec, x: string, p: string): string {
  const { b } = ctx;
  const { hidden, heads, seq } = spec;
  const d = hidden / heads;
  const split = (t: string, perm: number[]): string => op.transpose(b, op.reshape(b, t, [0, 0, heads, d]), perm);
  const q = split(linear(ctx, x, `${p}.wq`, `${p}.bq`), [0, 2, 1, 3]); // [N, H, T, d]
  const kT = split(linear(ctx, x, `${p}.wk`, `${p}.bk`), [0, 2, 3, 1]); // [N, H, d, T]
  const v = split(linear(ctx, x, `${p}.wv`, `${p}.bv`), [0, 2, 1, 3]); // [N, H, T, d]
  const scores = op.mul(b, op.matmul(b, q, kT), b.scalarLike(1 / Math.sqrt(d), x));
  const probs = op.softmax(b, op.add(b, scores, causalMask(b, seq, x)));
  const context = op.reshape(b, op.transpose(b, op.matmul(b, probs, v), [0, 2, 1, 3]), [0, 0, hidden]);
  return linear(ctx, context, `${p}.wo`, `${p}.bo`);
}

/** Builds the tiny GPT definition. */
export function createTinyGpt(spec: TinyGptSpec): LayeredModel {
  const { hidden, layers, heads, seq, vocab } = spec;
  if (hidden % heads !== 0) throw new Error(`hidden (${hidden}) must be divisible by heads (${heads})`);
  const h = hidden;
  const stageParameters = (stage: Stage): ParamSpec[] => {
    if (stage === 'input') return [normal('tok_emb', [vocab, h]), normal('pos_emb', [seq, h], 0.01)];
    if (stage === 'head') return [ones('lnf.g', [h]), zeros('lnf.b', [h]), normal('lm_head.w', [h, vocab])];
    const p = `blk${stage}`;
    // GPT-2 scales residual projections by 1/√(2L) so the residual stream stays O(1).
    const residualStd = INIT_STD / Math.sqrt(2 * layers);
    return [
      ones(`${p}.ln1.g`, [h]),
      zeros(`${p}.ln1.b`, [h]),
      normal(`${p}.attn.wq`, [h, h]),
      zeros(`${p}.attn.bq`, [h]),
      normal(`${p}.attn.wk`, [h, h]),
      zeros(`${p}.attn.bk`, [h]),
      normal(`${p}.attn.wv`, [h, h]),
      zeros(`${p}.attn.bv`, [h]),
      normal(`${p}.attn.wo`, [h, h], residualStd),
      zeros(`${p}.attn.bo`, [h]),
      ones(`${p}.ln2.g`, [h]),
      zeros(`${p}.ln2.b`, [h]),
      normal(`${p}.mlp.w1`, [h, 4 * h]),
      zeros(`${p}.mlp.b1`, [4 * h]),
      normal(`${p}.mlp.w2`, [4 * h, h], residualStd),
      zeros(`${p}.mlp.b2`, [h]),
    ];
  };
  return {
    arch: 'tiny-gpt',
    layers,
    dims: { hidden, layers, heads, seq, vocab },
    data: { name: TOKENS, dtype: 'int64', shape: [BATCH_DIM, seq] },
    labels: { name: LABELS, dtype: 'int64', shape: [BATCH_DIM, seq] },
    activationShape: [BATCH_DIM, seq, hidden],
    stageParameters,
    emitInput: (ctx, tokens) =>
      ctx.b.scoped('embed', () => op.add(ctx.b, op.gather(ctx.b, ctx.param('tok_emb'), tokens), ctx.param('pos_emb'))),
    emitLayer: (ctx, l, x, out) =>
      ctx.b.scoped(`blk${l}`, () => {
        const p = `blk${l}`;
        const afterAttention = op.add(ctx.b, x, attention(ctx, spec, layerNorm(ctx, x, `${p}.ln1.g`, `${p}.ln1.b`), `${p}.attn`));
        const hiddenMlp = gelu(
          ctx,
          linear(ctx, layerNorm(ctx, afterAttention, `${p}.ln2.g`, `${p}.ln2.b`), `${p}.mlp.w1`, `${p}.mlp.b1`),
        );
        return op.add(ctx.b, afterAttention, linear(ctx, hiddenMlp, `${p}.mlp.w2`, `${p}.mlp.b2`), out);
      }),
    emitHead: (ctx, x) =>
      ctx.b.scoped('head', () => op.matmul(ctx.b, layerNorm(ctx, x, 'lnf.g', 'lnf.b'), ctx.param('lm_head.w'), LOGITS)),
  };
}
