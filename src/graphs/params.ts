/**
 * Parameter descriptions. Kept free of the graph builder so the browser can read them from the
 * manifest and initialise weights (init.ts) without loading any build-time code.
 */

/** How a parameter is initialised. */
export type ParamInit =
  | { readonly kind: 'normal'; /** Standard deviation. */ readonly std: number }
  | { readonly kind: 'zeros' }
  | { readonly kind: 'ones' };

/** One trainable tensor: always an fp32 graph input (master weights), never an initializer. */
export interface ParamSpec {
  /** Graph input name; its gradient is `grad.<name>`. */
  readonly name: string;
  /** Fixed shape. */
  readonly shape: readonly number[];
  /** Initialisation rule used by `initWeights`. */
  readonly init: ParamInit;
}

/** Number of scalars in a parameter. */
export function parameterSize(p: ParamSpec): number {
  return p.shape.reduce((n, d) => n * d, 1);
}

/** Total number of scalars over parameters. */
export function parameterCount(params: readonly ParamSpec[]): number {
  return params.reduce((n, p) => n + parameterSize(p), 0);
}
