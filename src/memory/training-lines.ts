/** Breakdown lines for one GPU of a training step (one pipeline stage). */
import {
  defaultMlpSegment, layerActivationBytes, mlpLayerActivationBytes, outsideActivationBytes, planRecompute,
  type LayerActivationBytes,
} from './activations.ts';
import { inferenceActivationBytes, weightBytes } from './inference.ts';
import { line, type LineDevice, type MemoryLine } from './lines.ts';
import { ARCH_TRAITS, type ModelConfig } from './model.ts';
import { OFFLOADED_GRADIENT_BYTES, offloadPlacement } from './offload.ts';
import { optimizerBytesPerParam } from './optimizer.ts';
import { microBatchesInFlight, stageParams, stageParamsFromTotal, zeroShards, type PipelineStage, type StageParams } from './parallel.ts';
import { countParams, type ParamCounts } from './params.ts';
import { PRECISION_BYTES } from './precision.ts';
import type { ResolvedEstimate } from './validate.ts';
import { formatCount } from './format.ts';
import { ceilDiv } from './units.ts';

/** Lines of one training stage plus the numbers the summary needs. */
export interface StageLines {
  lines: MemoryLine[];
  /** Parameters on this GPU before ZeRO sharding. */
  stage: StageParams;
  /** Activation bytes kept per layer for one micro-batch. */
  activationsPerLayer: number;
}

const bitsLabel = (bytes: number) => (bytes === 4 ? 'fp32' : bytes === 2 ? '16-bit' : bytes === 1 ? '8-bit' : `${bytes} B`);

/** Build the training lines for pipeline stage `stage`. */
export function trainingLines(r: ResolvedEstimate, stage: PipelineStage): StageLines {
  const counts = r.model === null ? null : countParams(r.model);
  const sp = counts === null || r.model === null ? stageParamsFromTotal(r.paramsOnly ?? 0, r.tp, r.pp) : stageParams(counts, r.model.layers, r.tp, r.pp, stage);
  const lines = modelStateLines(r, sp, counts);
  let activationsPerLayer = 0;
  if (r.model !== null) {
    const activations = activationLines(r, r.model, sp, stage);
    lines.push(...activations.lines);
    activationsPerLayer = activations.perLayer;
  }
  if (r.teacher !== null) lines.push(...teacherLines(r));
  return { lines, stage: sp, activationsPerLayer };
}

/** Weights, gradients and optimizer states after ZeRO and offload. */
function modelStateLines(r: ResolvedEstimate, sp: StageParams, counts: ParamCounts | null): MemoryLine[] {
  const precision = PRECISION_BYTES[r.precision];
  const optimizer = optimizerBytesPerParam(r.optimizer, r.precision);
  const shards = zeroShards(sp.params, r.dp, r.zero);
  const place = offloadPlacement(r.offload);
  const host: LineDevice = r.offloadDevice;
  const shardNote = (n: number) => (n === sp.params ? `${formatCount(n)} params` : `${formatCount(n)} params (1/${r.dp} shard)`);
  const zeroSource = 'ZeRO (arXiv 1910.02054 §5): stage 1 shards optimizer, 2 gradients, 3 weights';
  const lines: MemoryLine[] = [];
  lines.push(line('weights', 'weights', place.weightsOnGpu ? 'gpu' : host,
    `Weights (${bitsLabel(precision.weights)}) × ${shardNote(shards.weights)}`, shards.weights * precision.weights,
    r.zero === 3 ? zeroSource : 'Weights at the training precision: 4 bytes fp32, 2 bytes 16-bit'));
  if (precision.castWeights > 0) {
    lines.push(line('weights-autocast', 'weights', 'gpu', `Autocast 16-bit weight copies × ${shardNote(shards.weights)}`,
      place.weightsOnGpu ? shards.weights * precision.castWeights : 0,
      'HF Transformers "Model training anatomy": mixed precision keeps fp32 and 16-bit weights (6 bytes/param)'));
  }
  if (r.zero === 3 && (r.dp > 1 || !place.weightsOnGpu) && counts !== null) {
    // One gathered unit (a layer, or the largest module): the other dp−1 shards arrive for its forward/backward.
    // Its own shard is already counted above unless the weights live on the host.
    const unit = Math.min(sp.params, Math.max(sp.perLayer, ceilDiv(counts.largestModule, r.tp)));
    const gathered = place.weightsOnGpu ? unit - ceilDiv(unit, r.dp) : unit;
    lines.push(line('weights-gathered', 'weights', 'gpu', `ZeRO-3 gathered unit: ${formatCount(gathered)} of ${formatCount(unit)} params fetched from other GPUs`,
      gathered * precision.weights,
      'ZeRO (arXiv 1910.02054 §5.3): parameters are all-gathered one unit at a time for forward and backward'));
  }
  if (place.gradientsOnGpu) {
    lines.push(line('gradients', 'gradients', 'gpu', `Gradients (${bitsLabel(precision.gradients)}) × ${shardNote(shards.gradients)}`,
      shards.gradients * precision.gradients, r.zero >= 2 ? zeroSource : 'One gradient per weight, kept across micro-batches (gradient accumulation)'));
  } else {
    const shard = ceilDiv(sp.params, r.dp);
    lines.push(line('gradients', 'gradients', host, `Gradients (fp32, offloaded) × ${shardNote(shard)}`, shard * OFFLOADED_GRADIENT_BYTES,
      'ZeRO-Offload (arXiv 2101.06840 §4.1): gradients stream to the host for the CPU optimizer step'));
  }
  const optDevice: LineDevice = place.optimizerOnGpu ? 'gpu' : host;
  if (optimizer.master > 0) {
    lines.push(line('optimizer-master', 'optimizer', optDevice, `fp32 master weights × ${shardNote(shards.optimizer)}`,
      shards.optimizer * optimizer.master, 'Mixed precision keeps an fp32 master copy (Micikevicius et al. 2017, arXiv 1710.03740)'));
  }
  lines.push(line('optimizer-moments', 'optimizer', optDevice,
    `Optimizer moments (${r.optimizer}: ${optimizer.moments} B/param) × ${shardNote(shards.optimizer)}`,
    shards.optimizer * optimizer.moments, 'Adam m and v (arXiv 1412.6980); 8-bit Adam 1 byte each (arXiv 2110.02861); SGD momentum one buffer'));
  return lines;
}

/** Activations kept for backward on this stage, plus the recompute working set. */
function activationLines(r: ResolvedEstimate, model: ModelConfig, sp: StageParams, stage: PipelineStage): { lines: MemoryLine[]; perLayer: number } {
  const traits = ARCH_TRAITS[model.arch];
  const e = PRECISION_BYTES[r.precision].activation;
  const layer: LayerActivationBytes = traits.transformer
    ? layerActivationBytes({
      seq: r.seq, microBatch: r.microBatch, hidden: model.hidden, heads: model.heads, kvHeads: model.kvHeads, ffn: model.ffn,
      mlp: traits.mlp === 'swiglu' ? 'swiglu' : 'gelu', topK: model.topK, dropout: r.dropout, flashAttention: r.flashAttention,
      bytesPerElement: e, tp: r.tp, sp: r.sp,
    })
    : mlpLayerActivationBytes(r.microBatch, model.hidden, e);
  const segment = r.checkpointEvery ?? (traits.transformer ? 1 : defaultMlpSegment(sp.layers));
  const plan = planRecompute(layer, sp.layers, r.recompute, segment, traits.transformer ? layer.input : 0);
  const inFlight = microBatchesInFlight(r.pp, r.gradAccum, stage);
  const outside = outsideActivationBytes({
    seq: r.seq, microBatch: r.microBatch, hidden: model.hidden, vocab: model.vocab, bytesPerElement: e, dropout: r.dropout,
    embeddingNorm: model.arch === 'bert', finalNorm: traits.finalNorm, transformer: traits.transformer, tp: r.tp, sp: r.sp,
  });
  const flight = inFlight > 1 ? ` × ${inFlight} micro-batches in flight` : '';
  const what = traits.transformer ? `s=${r.seq}, b=${r.microBatch}` : `b=${r.microBatch}`;
  const lines: MemoryLine[] = [];
  const keptLabel = r.recompute === 'full'
    ? `Checkpointed inputs: ${ceilDiv(sp.layers, plan.segment)} of ${sp.layers} layers (every ${plan.segment}), ${what}${flight}`
    : `Activations: ${sp.layers} layers × ${formatCount(plan.keptPerLayer)} B (${r.recompute === 'selective' ? 'selective recompute' : 'no recompute'}, ${what})${flight}`;
  lines.push(line('activations-layers', 'activations', 'gpu', keptLabel, plan.keptForLayers * inFlight,
    traits.transformer ? 'Korthikanti et al. 2022 (arXiv 2205.05198) §4, Table 2: sbh(34 + 5as/h) per layer' : 'Site demo MLP: one b×h tensor per hidden layer'));
  if (r.recompute !== 'none') {
    lines.push(line('activations-recompute', 'activations', 'gpu',
      r.recompute === 'full' ? `Recompute working set: one segment of ${plan.segment} layer(s) rebuilt in backward` : 'Recompute working set: one layer’s attention core rebuilt',
      plan.workingSet, r.recompute === 'full' ? 'Chen et al. 2016 (arXiv 1604.06174): O(L/k + k) with segments of k layers' : 'Korthikanti et al. 2022 §5: selective recompute'));
  }
  const first = stage !== 'last';
  const last = stage !== 'first';
  if (traits.transformer) {
    lines.push(line('activations-embedding', 'activations', 'gpu', `Embedding output (dropout mask, norm input)${flight}`,
      first ? outside.embedding * inFlight : 0, 'Korthikanti et al. 2022 §4.3: embedding dropout mask sbh'));
    lines.push(line('activations-head', 'activations', 'gpu', 'Final-norm and head inputs', last ? outside.headInputs : 0,
      'Korthikanti et al. 2022 §4.3: inputs of the final norm and output layer'));
  }
  lines.push(line('activations-logits', 'activations', 'gpu', `Logits in fp32 for the loss (${traits.transformer ? 's·b·V' : 'b·classes'} × 4 B)`,
    last ? outside.logits : 0, 'Korthikanti et al. 2022 §4.3: cross-entropy keeps 4sbv/t bytes of fp32 logits'));
  return { lines, perLayer: plan.keptPerLayer };
}

/** Frozen distillation teacher: weights and a forward working set, on every GPU. */
function teacherLines(r: ResolvedEstimate): MemoryLine[] {
  if (r.teacher === null) return [];
  const t = r.teacher.config;
  const traits = ARCH_TRAITS[t.arch];
  const params = countParams(t).total;
  const e = PRECISION_BYTES[r.precision].activation;
  const seq = traits.transformer ? r.seq : 1;
  return [
    line('teacher-weights', 'weights', 'gpu', `Teacher ${r.teacher.id} weights (${r.teacherWeights}, frozen)`, weightBytes(params, r.teacherWeights),
      'Hinton et al. 2015 (arXiv 1503.02531): teacher runs forward only; no gradients or optimizer states'),
    line('teacher-activations', 'activations', 'gpu', `Teacher forward working set and its logits (s·b·V × 4 B)`,
      inferenceActivationBytes({
        seq, batch: r.microBatch, hidden: t.hidden, heads: t.heads, kvHeads: t.kvHeads, ffn: t.ffn, mlp: traits.mlp,
        transformer: traits.transformer, flashAttention: r.flashAttention, bytesPerElement: e, vocab: t.vocab, logitPositions: seq, tp: 1,
      }),
      'Under torch.no_grad() nothing is kept for backward; the soft targets are kept for the loss'),
  ];
}
