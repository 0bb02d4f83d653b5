import type { PlannedRun } from './step-plan';
import type { Session, Tensor } from './worker-gpu';

/**
 * Runs a step's graphs in plan order over `env` (tensors by name): each run reads its inputs
 * from `env`, adds its outputs, and disposes the intermediates no later run reads. `afterRun`
 * sees each run's outputs once they are in `env` (to sample memory, or to reduce a gradient
 * bucket the moment the backward produced it).
 */
export async function runPlan(
  plan: readonly PlannedRun[],
  sessions: readonly Session[],
  env: Map<string, Tensor>,
  guard: <T>(promise: Promise<T>) => Promise<T>,
  afterRun: (run: PlannedRun, index: number) => void | Promise<void> = () => {},
): Promise<void> {
  for (const [index, run] of plan.entries()) {
    const session = sessions[index];
    if (!session) throw new Error(`no session for ${run.file}`);
    const feeds: Record<string, Tensor> = {};
    for (const name of run.inputs) {
      const tensor = env.get(name);
      if (!tensor) throw new Error(`${run.file} needs ${name}, which nothing provided`);
      feeds[name] = tensor;
    }
    const outputs = await guard(session.run(feeds));
    for (const [name, tensor] of Object.entries(outputs)) env.set(name, tensor);
    for (const name of run.release) {
      env.get(name)?.dispose();
      env.delete(name);
    }
    await afterRun(run, index);
  }
}
