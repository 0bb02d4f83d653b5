import type { Executor, Session, Tensor } from './executor';
import type { PlannedRun } from './step-plan';

/** What a caller adds around each graph run of a plan. */
export interface PlanHooks {
  /** Tensors run `index` reads that are not in `env` (weights streamed in for it alone). */
  readonly feeds?: (index: number) => Readonly<Record<string, Tensor>>;
  /** Called once run `index` is issued, before it is awaited: work placed here overlaps it. */
  readonly whileRunning?: (index: number) => void;
  /**
   * Called with each run's outputs once they are in `env` and the dead intermediates are freed
   * (to sample memory, or to reduce a gradient bucket the moment the backward produced it).
   */
  readonly afterRun?: (run: PlannedRun, index: number, outputs: Readonly<Record<string, Tensor>>) => void | Promise<void>;
}

/** The tensors graph `file` reads, by name, from `find`; a missing one is an error naming it. */
export function feedsFor(
  file: string,
  inputs: readonly string[],
  find: (name: string) => Tensor | undefined,
): Record<string, Tensor> {
  const feeds: Record<string, Tensor> = {};
  for (const name of inputs) {
    const tensor = find(name);
    if (!tensor) throw new Error(`${file} needs ${name}, which nothing provided`);
    feeds[name] = tensor;
  }
  return feeds;
}

/**
 * Runs a step's graphs in plan order over `env` (tensors by name): each run reads its inputs
 * from `env`, adds its outputs, and disposes the intermediates no later run reads.
 */
export async function runPlan(
  plan: readonly PlannedRun[],
  sessions: readonly Session[],
  env: Map<string, Tensor>,
  exec: Pick<Executor, 'run'>,
  { feeds: extra, whileRunning, afterRun }: PlanHooks = {},
): Promise<void> {
  for (const [index, run] of plan.entries()) {
    const session = sessions[index];
    if (!session) throw new Error(`no session for ${run.file}`);
    const given = extra?.(index) ?? {};
    const feeds = feedsFor(run.file, run.inputs, (name) => given[name] ?? env.get(name));
    const pending = exec.run(session, feeds);
    whileRunning?.(index);
    const outputs = await pending;
    for (const [name, tensor] of Object.entries(outputs)) env.set(name, tensor);
    for (const name of run.release) {
      env.get(name)?.dispose();
      env.delete(name);
    }
    await afterRun?.(run, index, outputs);
  }
}
