/** Layer ranges for recomputation segments and pipeline/streaming stage slices. */

/** A half-open layer range [start, end). */
export type LayerRange = readonly [start: number, end: number];

/** The default recompute segment length, round(√L) (Chen et al. 2016, "Training Deep Nets with Sublinear Memory Cost"). */
export function defaultSegmentLength(layers: number): number {
  return Math.max(1, Math.round(Math.sqrt(layers)));
}

/** Splits L layers into consecutive ranges of `length` layers (the last may be shorter). */
export function segmentRanges(layers: number, length: number): LayerRange[] {
  if (!Number.isInteger(length) || length < 1) throw new Error(`segment length must be a positive integer, got ${length}`);
  const ranges: LayerRange[] = [];
  for (let start = 0; start < layers; start += length) ranges.push([start, Math.min(layers, start + length)]);
  return ranges;
}

/** Splits L layers into `stages` near-equal contiguous ranges (pipeline stages). */
export function stageRanges(layers: number, stages: number): LayerRange[] {
  if (!Number.isInteger(stages) || stages < 1 || stages > layers)
    throw new Error(`stages must be in 1..${layers}, got ${stages}`);
  const ranges: LayerRange[] = [];
  let start = 0;
  for (let s = 0; s < stages; s++) {
    const end = start + Math.floor(layers / stages) + (s < layers % stages ? 1 : 0);
    ranges.push([start, end]);
    start = end;
  }
  return ranges;
}
