/** Static shape arithmetic over partly symbolic shapes (numbers or named dims). */
import type { Dim } from './builder.ts';

/** Numpy-style broadcast of two shapes; throws when two dims cannot match. */
export function broadcastShapes(a: readonly Dim[], b: readonly Dim[]): Dim[] {
  const rank = Math.max(a.length, b.length);
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    const da = a[a.length - rank + i] ?? 1;
    const db = b[b.length - rank + i] ?? 1;
    if (da === db || db === 1) out.push(da);
    else if (da === 1) out.push(db);
    else throw new Error(`cannot broadcast [${a.join(',')}] with [${b.join(',')}]`);
  }
  return out;
}

/** Normalises a possibly negative axis for a given rank. */
export function normalizeAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) throw new Error(`axis ${axis} out of range for rank ${rank}`);
  return a;
}

/**
 * The axes to sum a gradient of shape `grad` over so that it takes shape `target`
 * (the reverse of broadcasting): leading extra axes are dropped, size-1 axes kept.
 */
export function unbroadcastAxes(grad: readonly Dim[], target: readonly Dim[]): { dropped: number[]; kept: number[] } {
  const lead = grad.length - target.length;
  const dropped: number[] = [];
  const kept: number[] = [];
  for (let i = 0; i < grad.length; i++) {
    if (i < lead) dropped.push(i);
    else if (target[i - lead] === 1 && grad[i] !== 1) kept.push(i);
  }
  return { dropped, kept };
}

/** Replaces symbolic dims by concrete sizes. */
export function resolveShape(shape: readonly Dim[], sizes: Readonly<Record<string, number>>): number[] {
  return shape.map((d) => {
    if (typeof d === 'number') return d;
    const size = sizes[d];
    if (size === undefined) throw new Error(`no size given for dim "${d}"`);
    return size;
  });
}
