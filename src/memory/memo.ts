/**
 * Memoized builders of lines (and of the step time's words). The planner runs thousands of estimates per search, each differing from the ones just before
 * it in one or two options (npm run bench -- planner): the model-state lines do not depend on the micro-batch or the
 * attention kernel, the activation lines not on ZeRO, offload or the optimizer. Each builder reads one record of
 * inputs and nothing else (its parameter's type), so equal inputs give equal lines, shared between estimates
 * (MemoryLine is read-only).
 *
 * Only the last few inputs of each builder are kept: the search revisits what it just built, and a cache of a whole
 * search's groups cost more in garbage collection than it saved (docs/PERFORMANCE.md § Planner search). Inputs are
 * compared field by field, objects (a preset's shape, a GPU) by identity: cheaper than building a key, and never
 * equal by mistake.
 * A property test (tests/unit/memory/memo.test.ts) holds estimates with warm caches to the same with empty ones.
 */

/** A builder's inputs: primitives, or objects compared by identity (shared, never mutated: presets, shapes). */
export type MemoInputs<I> = { readonly [K in keyof I]: string | number | boolean | null | object };

interface Entry<I, T> {
  readonly inputs: I;
  readonly value: T;
}

/** Every cache, so that tests can empty them all. */
const caches = new Set<Entry<unknown, unknown>[]>();

/**
 * `build`, answering from its last `kept` results when the inputs are the same. Each builder keeps as many as its
 * pattern of reuse needs (a miss compares against every one kept; npm run bench -- planner). `same` compares two
 * inputs: by default every field by name; the builders the planner calls thousands of times a search give their own,
 * field by field, which is faster (docs/PERFORMANCE.md § Planner search; a test holds each to every field of its
 * inputs).
 */
export function memo<I extends MemoInputs<I>, T>(
  build: (inputs: I) => T,
  kept: number,
  same: (a: I, b: I) => boolean = sameFields,
): (inputs: I) => T {
  const recent: Entry<I, T>[] = [];
  caches.add(recent as Entry<unknown, unknown>[]);
  return (inputs) => {
    for (let i = 0; i < recent.length; i++) {
      const entry = recent[i] as Entry<I, T>;
      if (!same(entry.inputs, inputs)) continue;
      // Most recently used first, so that the alternation the search makes is found at once (moved by hand: splice
      // allocates the array it removes).
      for (let j = i; j > 0; j--) recent[j] = recent[j - 1] as Entry<I, T>;
      recent[0] = entry;
      return entry.value;
    }
    const value = build(inputs);
    recent.unshift({ inputs, value });
    if (recent.length > kept) recent.pop();
    return value;
  };
}

/** Empty every cache (tests compare estimates with and without them). */
export function clearMemo(): void {
  for (const recent of caches) recent.length = 0;
}

/** Same fields with identical values; every builder's inputs come from one object literal, so the same keys. */
function sameFields<I extends MemoInputs<I>>(a: I, b: I): boolean {
  for (const name in b) if (a[name] !== b[name]) return false;
  return true;
}
