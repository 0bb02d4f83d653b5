/**
 * torch.compile's effect on the activations a step saves, as the engine states it rather than models it. AOTAutograd
 * splits the joint forward-backward graph with `min_cut_rematerialization_partition` (torch/_functorch/partitioners.py,
 * Inductor's default partitioner), which saves the cheapest cut of forward values and recomputes fusible pointwise ops
 * in backward. Which values it saves depends on the graph and the torch version, so the engine counts eager autograd's
 * saved tensors: an upper bound on a compiled step's.
 */

/** The assumption every estimate with `--compile` prints. */
export const COMPILE_ASSUMPTION =
  "--compile: not modelled; the saved activations are eager autograd's, an upper bound: torch.compile's min-cut partitioner (torch/_functorch/partitioners.py min_cut_rematerialization_partition) may save fewer and recompute cheap pointwise ops in backward";
