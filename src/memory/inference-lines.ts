/** Breakdown lines for one GPU serving a model (inference). */
import { inferenceActivationBytes, kvCacheBytes, kvCacheBytesPerElement, stageWeightBytes } from './inference.ts';
import { WEIGHT_FORMAT_SPECS } from './weight-formats.ts';
import { line, type MemoryLine } from './lines.ts';
import { aliveAt, lifetime, type MomentId } from './timeline.ts';
import { ARCH_TRAITS, attentionWidths, headDim, widestMlp } from './model.ts';
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
    const cachedAt = (tokens: number) => (model.slidingWindow === null ? tokens : Math.min(tokens, model.slidingWindow));
    const windowNote = cachedAt(r.tokens) < r.tokens ? ` (sliding window ${model.slidingWindow})` : '';
    const kv = (tokens: number) =>
      traits.transformer
        ? kvCacheBytes({
            layers: ceilDiv(model.layers, r.pp),
            kvHeads: model.kvHeads,
            headDim: headDim(model),
            bytesPerElement: kvCacheBytesPerElement(r.weights),
            batch: r.microBatch,
            tokens,
            slidingWindow: model.slidingWindow,
            tp: r.tp,
          })
        : 0;
    lines.push(
      line(
        'kv-cache',
        'kvCache',
        'gpu',
        traits.transformer
          ? `KV cache: ${ceilDiv(model.layers, r.pp)} layers × ${model.kvHeads} kv heads × ${cachedAt(r.tokens)} tokens${windowNote} × batch ${r.microBatch}`
          : 'KV cache (none: not a transformer)',
        lifetime(MOMENTS, [kv(prefill), ['prefill']], [kv(r.tokens), ['decode']]),
        'EleutherAI Transformer Math 101: 2 · layers · kv_heads · head_dim · bytes per token; Mistral rolling buffer (arXiv 2310.06825)',
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
        vocab: model.vocab,
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
