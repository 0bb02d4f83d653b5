/**
 * "This runtime" for one side of a cluster experiment: every device's own loop (device-job.ts:
 * replica.ts or pipeline-stage.ts, with their Adam, reduce and accumulate graphs) run on a
 * device of the runtime model (runtime-model/runtime-executor.ts), linked as the page links its
 * workers (local-cluster.ts). One prediction per device, in the figure the page reports for a
 * measured device: bytes above its fresh runtime at its busiest moment. Pure: no WebGPU.
 */
import { FEATURES, LABELS } from '../../../graphs/browser-safe';
import type { ClusterJob } from '../../measure/cluster-job';
import { peakAbove } from '../../measure/measured-memory';
import { placedExamplesBytes } from '../../runtime-model/placed-examples-bytes';
import { createRuntimeExecutor, type ScheduleLoader } from '../../runtime-model/runtime-executor';
import { itemiseGap, type ItemisedGap } from '../../runtime-model/runtime-gap';
import { ONNXRUNTIME_RULES, type RuntimeRules } from '../../runtime-model/runtime-rules';
import { LAB_SEED } from '../settings';
import { runDeviceJob } from './device-job';
import { localCluster } from './local-cluster';

/** One side of a cluster experiment: its job, on how many devices, for how many steps. */
export interface ClusterSideRun {
  readonly job: ClusterJob;
  readonly devices: number;
  readonly steps: number;
}

/** "This runtime"'s peak of each device (by rank) of the side `side` describes, following `rules`. */
export async function predictClusterSide(
  side: ClusterSideRun,
  loadSchedule: ScheduleLoader,
  rules: RuntimeRules = ONNXRUNTIME_RULES,
): Promise<number[]> {
  const runs = localCluster(side.devices, LAB_SEED, side.steps, () => createRuntimeExecutor({ loadSchedule, rules }));
  const results = await Promise.all(runs.map((run) => runDeviceJob(run, side.job)));
  return results.map((result) => peakAbove(result.memory));
}

/**
 * The examples and labels device `rank` places: its share of the batch (replica.ts), or on a
 * pipeline the whole batch's features on the first stage and labels on the last (pipeline-stage.ts).
 */
function deviceExamplesBytes(side: ClusterSideRun, rank: number): number {
  const { job, devices } = side;
  if (job.kind !== 'pipeline') return placedExamplesBytes(job.model, job.batch / devices, LAB_SEED);
  const reads = (name: string): boolean => (name === FEATURES && rank === 0) || (name === LABELS && rank === devices - 1);
  return placedExamplesBytes(job.model, job.batch, LAB_SEED, reads);
}

/**
 * Each device's prediction and its gap to the engine's per-device peak `pytorchPeakBytes`,
 * itemised (runtime-gap.ts): the side is predicted once per set of rules, for every device at once.
 */
export async function itemiseClusterGaps(
  side: ClusterSideRun,
  loadSchedule: ScheduleLoader,
  pytorchPeakBytes: number,
): Promise<ItemisedGap[]> {
  const predicted = new Map<string, Promise<number[]>>();
  const peaksUnder = (rules: RuntimeRules): Promise<number[]> => {
    const key = JSON.stringify(rules);
    const peaks = predicted.get(key) ?? predictClusterSide(side, loadSchedule, rules);
    predicted.set(key, peaks);
    return peaks;
  };
  const gaps: ItemisedGap[] = [];
  for (let rank = 0; rank < side.devices; rank++)
    gaps.push(
      await itemiseGap(async (rules) => (await peaksUnder(rules))[rank] ?? 0, deviceExamplesBytes(side, rank), pytorchPeakBytes),
    );
  return gaps;
}
