/** What the engine computed a model as, for the line shown next to every model picker. */
import type { EstimateResult } from '../../memory/index';

/** A model's architecture family and parameter counts, from an engine result. */
export interface ModelFacts {
  /** The architecture family the engine built: the config.json `model_type` when known (e.g. `qwen3`), else the arch; null for a bare parameter count. */
  readonly family: string | null;
  /** Total parameters. */
  readonly params: number;
  /** Parameters a token uses (MoE: its top-k experts); equals `params` for a dense model. */
  readonly activeParams: number;
}

/** The facts of the model behind `result`. */
export function modelFacts(result: EstimateResult): ModelFacts {
  return {
    family: result.model === null ? null : (result.model.family ?? result.model.arch),
    params: result.params,
    activeParams: result.activeParams,
  };
}
