/**
 * The largest difference between two sets of gradients, relative to the reference's largest
 * magnitude: 0 when they are identical, about 1e-7 when they differ by float32 rounding.
 * Parameters missing from either side count as a difference of 1 (entirely different).
 */
export function maxRelativeDifference(
  result: Readonly<Record<string, Float32Array>>,
  reference: Readonly<Record<string, Float32Array>>,
): number {
  let worst = 0;
  const names = new Set([...Object.keys(result), ...Object.keys(reference)]);
  for (const name of names) {
    const a = result[name];
    const b = reference[name];
    if (!a || !b || a.length !== b.length) return 1;
    let scale = 0;
    let diff = 0;
    for (let i = 0; i < b.length; i++) {
      scale = Math.max(scale, Math.abs(b[i] ?? 0));
      diff = Math.max(diff, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
    }
    if (!Number.isFinite(diff)) return 1;
    worst = Math.max(worst, scale > 0 ? diff / scale : diff);
  }
  return worst;
}
