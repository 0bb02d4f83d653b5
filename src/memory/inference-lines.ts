/** Breakdown lines for one GPU serving a model (inference). */
import {
  inferenceActivationBytes,
  kvCacheBytes,
  kvCacheBytesPerElement,
  kvCacheElementsPerToken,
  stageWeightBytes,
} from './inference.ts';
import { WEIGHT_FORMAT_SPECS } from './weight-formats.ts';
import { line, type MemoryLine } from './lines.ts';
import { aliveAt, lifetime, type MomentId } from './timeline.ts';
import { ARCH_TRAITS, attentionWidths, headWidth, slidingLayersIn, widestMlp, type ModelConfig } from './model.ts';
import { stageParams, stageParamsFromTotal, type StageParams } from './parallel.ts';
import { countParams } from './params.ts';
import type { ResolvedEstimate } from './validate.ts';
import { formatCount } from './format.ts';
import { ceilDiv } from './ceil-div.ts';

/** Inference lines plus the stage parameters they were computed for. */
export interface InferenceLines {
  /** The moments: prefill and decode. */
  moments: MomentId[];
  lines: MemoryLine[];
  stage: StageParams;
}

const MOMENTS: MomentId[] = ['prefill', 'decode'];

/**
 * Build inference lines: weights at the chosen dtype all along; the KV cache holding the prompt after prefill and
 * every token by the last decode step; the forward working set of the whole prompt (prefill) or of one token (decode).
 */
export function inferenceLines(r: ResolvedEstimate): InferenceLines {
  const model = r.model;
  const total = model === null ? (r.paramsOnly ?? 0) : countParams(model).total;
  const stage =
    model === null
      ? stageParamsFromTotal(r.paramsOnly ?? 0, r.tp, r.pp)
      : stageParams(countParams(model), model.layers, r.tp, r.pp, r.pp > 1 ? 'first' : 'only');
  const lines: MemoryLine[] = [
    line(
      'weights',
      'weights',
      'gpu',
      `Weights (${WEIGHT_FORMAT_SPECS[r.weights].label}) × ${formatCount(stage.params)} params`,
      aliveAt(stageWeightBytes(model, total, stage.params, r.weights), MOMENTS),
      WEIGHT_FORMAT_SPECS[r.weights].source,
    ),
  ];
  if (model !== null) {
    const traits = ARCH_TRAITS[model.arch];
    const prefill = traits.transformer ? Math.min(r.seq, r.tokens) : 1;
    // The first pipeline stage's layers, [0, ceil(L/p)), as for its weights.
    const stageLayers = ceilDiv(model.layers, r.pp);
    const windowLayers = slidingLayersIn(model, 0, stageLayers);
    const cache = {
      elementsPerToken: kvCacheElementsPerToken(model, r.kvCache, r.tp),
      fullLayers: stageLayers - windowLayers,
      windowLayers,
      window: model.slidingWindow ?? 0,
      bytesPerElement: kvCacheBytesPerElement(r.weights),
      batch: r.microBatch,
    };
    const kv = (tokens: number) => (traits.transformer ? kvCacheBytes({ ...cache, tokens }) : 0);
    lines.push(
      line(
        'kv-cache',
        'kvCache',
        'gpu',
        traits.transformer ? kvCacheLabel(model, r, cache) : 'KV cache (none: not a transformer)',
        lifetime(MOMENTS, [kv(prefill), ['prefill']], [kv(r.tokens), ['decode']]),
        model.mla === undefined
          ? 'EleutherAI Transformer Math 101: 2 · layers · kv_heads · head_dim · bytes per token; sliding-window layers keep the window (Transformers DynamicSlidingWindowLayer, vLLM SlidingWindowManager)'
          : r.kvCache === 'latent'
            ? 'DeepSeek-V2 (arXiv 2405.04434) Table 1: MLA caches (d_c + d_h^R) elements per token per layer; vLLM and SGLang store this latent'
            : 'Transformers modeling_deepseek_v3.py: DeepseekV3Attention caches every head’s key (qk_nope + qk_rope) and value (v_head_dim)',
      ),
    );
    const e = r.weights === 'fp32' ? 4 : 2;
    const workingSet = (tokens: number) =>
      inferenceActivationBytes({
        seq: tokens,
        batch: r.microBatch,
        hidden: model.hidden,
        heads: model.heads,
        widths: attentionWidths(model),
        mlpWidth: widestMlp(model),
        mlp: traits.mlp,
        transformer: traits.transformer,
        attention: r.attention,
        bytesPerElement: e,
        vocab: headWidth(model),
        logitPositions: 1,
        tp: r.tp,
      });
    lines.push(
      line(
        'activations-forward',
        'activations',
        'gpu',
        `Forward working set (prefill ${prefill} tokens, decode 1 token, × batch ${r.microBatch})`,
        lifetime(MOMENTS, [workingSet(prefill), ['prefill']], [workingSet(1), ['decode']]),
        'This site’s estimate: one layer’s largest intermediates plus last-token fp32 logits (nothing kept for backward)',
      ),
    );
  }
  return { moments: MOMENTS, lines, stage };
}

/** What the KV-cache line shows: layers, heads and tokens, the window's layers apart, and for MLA which runtime's cache. */
function kvCacheLabel(
  model: ModelConfig,
  r: ResolvedEstimate,
  cache: { fullLayers: number; windowLayers: number; window: number },
): string {
  const windowed = Math.min(r.tokens, cache.window);
  const heads =
    model.mla === undefined
      ? `${model.kvHeads} kv heads`
      : r.kvCache === 'latent'
        ? `MLA latent ${model.mla.kvLoraRank} + ${model.mla.qkRopeHeadDim} per token, as vLLM and SGLang cache it (--kv-cache expanded: Transformers)`
        : `MLA expanded to ${model.heads} heads’ keys and values, as Transformers caches them (--kv-cache latent: vLLM, SGLang)`;
  let layers: string;
  if (cache.windowLayers === 0) layers = `${cache.fullLayers} layers × ${heads} × ${r.tokens} tokens`;
  else if (cache.fullLayers === 0)
    layers = `${cache.windowLayers} layers × ${heads} × ${windowed} tokens${windowed < r.tokens ? ` (sliding window ${cache.window})` : ''}`;
  else
    layers = `${cache.fullLayers} full-attention layers × ${r.tokens} tokens + ${cache.windowLayers} sliding-window layers × ${windowed} tokens (window ${cache.window}), × ${heads}`;
  return `KV cache: ${layers} × batch ${r.microBatch}`;
}
