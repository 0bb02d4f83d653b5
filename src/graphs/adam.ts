/**
 * Adam's constants and per-step scalars, apart from the graph that applies them (optimizer.ts),
 * so the browser can compute what it feeds that graph without importing the graph builder.
 */

/** Adam's hyper-parameters: PyTorch's defaults (torch.optim.Adam, betas=(0.9, 0.999), eps=1e-8). */
export const ADAM = { beta1: 0.9, beta2: 0.999, eps: 1e-8 } as const;

/**
 * The scalars `buildAdamGraph` takes at step t (1-based) for learning rate lr: `step_size` =
 * lr/(1−β₁ᵗ) and `bias2_sqrt` = √(1−β₂ᵗ) (Kingma & Ba 2015, arXiv 1412.6980, Algorithm 1).
 */
export function adamScalars(lr: number, t: number): { stepSize: number; bias2Sqrt: number } {
  return { stepSize: lr / (1 - ADAM.beta1 ** t), bias2Sqrt: Math.sqrt(1 - ADAM.beta2 ** t) };
}
