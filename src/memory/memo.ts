/**
 * Memoized line builders. The planner runs thousands of estimates per search that differ in one or two options
 * (npm run bench -- planner): the model-state lines do not depend on the micro-batch or the attention kernel, the
 * activation lines not on ZeRO, offload or the optimizer. Each builder reads one record of inputs and nothing else,
 * so equal inputs give equal lines, and the lines are built once per inputs and shared between estimates (MemoryLine
 * is read-only).
 * A property test (tests/unit/memory/memo.test.ts) holds every estimate to the same estimate with empty caches.
 */

/** A builder's inputs: primitives and plain data (a model's shape), compared by value. */
export type MemoInputs = Readonly<Record<string, string | number | boolean | null | object>>;

/** Values kept per builder before its cache starts over (a search needs a few thousand). */
const MAX_ENTRIES = 20_000;

/**
 * One cache per builder: a tree of maps, one level per input in the inputs' order (every builder's inputs come from
 * one object literal), with the value at the leaf. Looking up a dozen primitives this way is cheaper than building
 * and hashing a string key from them.
 */
interface Cache {
  readonly root: Map<unknown, unknown>;
  size: number;
}

const LEAF = Symbol('value');
const caches = new Map<(inputs: never) => unknown, Cache>();

/** `build(inputs)`, from the cache when some earlier call had equal inputs. */
export function memoized<I extends MemoInputs, T>(build: (inputs: I) => T, inputs: I): T {
  let cache = caches.get(build);
  if (cache === undefined) caches.set(build, (cache = { root: new Map(), size: 0 }));
  if (cache.size >= MAX_ENTRIES) {
    cache.root.clear();
    cache.size = 0;
  }
  let node = cache.root;
  for (const name in inputs) {
    const value = inputs[name];
    const key = typeof value === 'object' && value !== null ? jsonOf(value) : value;
    let next = node.get(key) as Map<unknown, unknown> | undefined;
    if (next === undefined) node.set(key, (next = new Map()));
    node = next;
  }
  if (node.has(LEAF)) return node.get(LEAF) as T;
  const value = build(inputs);
  node.set(LEAF, value);
  cache.size += 1;
  return value;
}

/** Empty every cache (tests compare estimates with and without them). */
export function clearMemo(): void {
  caches.clear();
}

/** JSON of plain data, once per object: a preset's shape is one object shared by every estimate of that model. */
const JSON_OF = new WeakMap<object, string>();
function jsonOf(value: object): string {
  let json = JSON_OF.get(value);
  if (json === undefined) JSON_OF.set(value, (json = JSON.stringify(value)));
  return json;
}
