/** Thins a series for charting without hiding its peaks. */

/**
 * At most about `maxPoints` points of `points`: each bucket of consecutive points keeps its highest
 * `value(point)`, so a spike survives however long the log. Order is kept.
 */
export function downsampleKeepingPeaks<T>(points: readonly T[], maxPoints: number, value: (point: T) => number): T[] {
  if (points.length <= maxPoints || maxPoints < 1) return [...points];
  const bucket = Math.ceil(points.length / maxPoints);
  const out: T[] = [];
  for (let start = 0; start < points.length; start += bucket) {
    let best = points[start] as T;
    for (let i = start + 1; i < Math.min(start + bucket, points.length); i++) {
      const p = points[i] as T;
      if (value(p) > value(best)) best = p;
    }
    out.push(best);
  }
  return out;
}
