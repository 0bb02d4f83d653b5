/** One unit of a pipeline stage's work: a micro-batch's forward or backward through the stage. */
export interface PipelineOp {
  readonly kind: 'forward' | 'backward';
  readonly micro: number;
}

/**
 * The 1F1B ("PipeDream-Flush") order of one stage's work (Narayanan et al. 2021, arXiv
 * 2104.04473, §2.2.1; Megatron-LM's `forward_backward_pipelining_without_interleaving`):
 * min(p − s − 1, m) warm-up forwards, then one forward and one backward alternately, then the
 * remaining backwards. Stage s so holds at most min(p − s, m) micro-batches' activations at once,
 * where GPipe's all-forwards-then-all-backwards holds all m.
 */
export function oneForwardOneBackward(stage: number, stages: number, microBatches: number): PipelineOp[] {
  if (!(stage >= 0 && stage < stages && Number.isInteger(stage))) throw new Error(`no stage ${stage} of ${stages}`);
  if (!(microBatches >= 1 && Number.isInteger(microBatches))) throw new Error(`${microBatches} micro-batches`);
  const warmup = Math.min(stages - stage - 1, microBatches);
  const ops: PipelineOp[] = [];
  for (let m = 0; m < warmup; m++) ops.push({ kind: 'forward', micro: m });
  for (let i = 0; i < microBatches - warmup; i++)
    ops.push({ kind: 'forward', micro: warmup + i }, { kind: 'backward', micro: i });
  for (let m = microBatches - warmup; m < microBatches; m++) ops.push({ kind: 'backward', micro: m });
  return ops;
}

/** Most micro-batches whose activations a stage holds at once under a schedule. */
export function peakInFlight(ops: readonly PipelineOp[]): number {
  let live = 0;
  let peak = 0;
  for (const op of ops) {
    live += op.kind === 'forward' ? 1 : -1;
    peak = Math.max(peak, live);
  }
  return peak;
}

/**
 * The idle fraction of a synchronous pipeline with equal stage times: (p − 1)/(m + p − 1)
 * (Huang et al. 2019, GPipe, arXiv 1811.06965, §2.2; the same for 1F1B, Narayanan et al. 2021 §2.2.1).
 */
export function idealBubbleFraction(stages: number, microBatches: number): number {
  return (stages - 1) / (microBatches + stages - 1);
}

/**
 * The idle share of `devices` devices' time between the first span's start and the last span's
 * end: 1 − busy / (devices × elapsed). Measured, so it includes uneven stages and transfer waits.
 */
export function measuredBubbleFraction(
  spans: readonly { readonly start: number; readonly end: number }[],
  devices: number,
): number {
  if (spans.length === 0 || devices < 1) return 0;
  const start = Math.min(...spans.map((s) => s.start));
  const end = Math.max(...spans.map((s) => s.end));
  const busy = spans.reduce((sum, s) => sum + (s.end - s.start), 0);
  return end > start ? Math.max(0, 1 - busy / (devices * (end - start))) : 0;
}
