/**
 * A data-parallel replica: the whole model on this device, trained on its slice of the batch.
 * Each backward graph's parameter gradients form a bucket that is averaged across devices as
 * soon as it exists, as DistributedDataParallel's bucketed all-reduce does. With Adam (a ZeRO
 * job), stage 0 keeps every gradient and moment on every device; stage 2 keeps only this
 * device's shard of both, reduce-scattering each bucket and all-gathering the updated weights.
 */
import { ADAM_TENSORS, adamScalars, FEATURES, gradName, gradientOf, LABELS, LOSS, TOKENS } from '../../graphs/browser-safe';
import {
  deviceResult,
  elementCount,
  placeWeights,
  placeZeros,
  runMeasuredSteps,
  runTimedSteps,
  type DeviceRun,
} from './cluster-device';
import type { DataParallelJob, DeviceResult, TensorSet, ZeroJob } from './cluster-job';
import type { Session, Tensor, Tensors } from './executor';
import { batchSlice } from './feeds';
import { partitionParameters } from './partition';
import { disposeAll, placeExamples } from './placed-examples';
import { runPlan } from './run-plan';
import { planStep, type PlannedRun } from './step-plan';

/** Adam's two moments of one parameter. */
interface Moments {
  m: Tensor;
  v: Tensor;
}

/** What the optimizer step works on: the weights, this step's gradients and the moments this device keeps. */
interface OptimizerState {
  readonly weights: ReadonlyMap<string, Tensor>;
  readonly grads: ReadonlyMap<string, Tensor>;
  readonly moments: Map<string, Moments>;
  readonly lengths: ReadonlyMap<string, number>;
}

/** A replica ready to step: its sessions, weights, optimizer state and who keeps what. */
interface Replica {
  readonly run: DeviceRun;
  readonly job: DataParallelJob | ZeroJob;
  readonly optimizer: ZeroJob | undefined;
  /** ZeRO-2: each device keeps only its shard of the gradients and of Adam's moments. */
  readonly sharded: boolean;
  readonly owners: Readonly<Record<string, number>>;
  /** Whose gradients and optimizer state this device keeps after each bucket is reduced. */
  readonly keeps: (parameter: string) => boolean;
  readonly lengths: ReadonlyMap<string, number>;
  readonly sessions: readonly Session[];
  readonly adam: Session | undefined;
  readonly loadMs: number;
  readonly weights: ReadonlyMap<string, Tensor>;
  readonly moments: Map<string, Moments>;
  readonly plan: readonly PlannedRun[];
  /** The parameter a tensor name is the gradient of, or undefined. */
  readonly parameterOf: (name: string) => string | undefined;
}

/** Opens the model's sessions (and Adam's), places the weights and, under ZeRO, this device's moments. */
async function openReplica(run: DeviceRun, job: DataParallelJob | ZeroJob): Promise<Replica> {
  const { exec, comm } = run;
  const { model } = job;
  const optimizer = job.kind === 'zero' ? job : undefined;
  const sharded = optimizer?.stage === 2;
  const owners = partitionParameters(model.parameters, comm.size);
  const keeps = (parameter: string): boolean => !sharded || owners[parameter] === comm.rank;
  const lengths = new Map(model.parameters.map((p) => [p.name, elementCount(p.shape)]));
  const loadStart = exec.now();
  const sessions = await exec.openAll(model.graphs, (name) => name !== LOSS);
  const adam = optimizer ? await exec.open(optimizer.adam, () => true) : undefined;
  const loadMs = exec.now() - loadStart;
  const weights = placeWeights(run, model);
  // Adam's two moments per parameter, zero before the first step (torch.optim.Adam allocates
  // them at the first step; placing them up front shows them in "at rest").
  const moments = new Map<string, Moments>();
  for (const [name, length] of optimizer ? lengths : []) {
    if (keeps(name)) moments.set(name, { m: placeZeros(run, length), v: placeZeros(run, length) });
  }
  const parameterOf = (name: string): string | undefined => {
    const parameter = gradientOf(name);
    return parameter !== undefined && lengths.has(parameter) ? parameter : undefined;
  };
  const external = new Set([...weights.keys(), FEATURES, TOKENS, LABELS]);
  const plan = planStep(model.graphs, external, (name) => name === LOSS || parameterOf(name) !== undefined);
  return { run, job, optimizer, sharded, owners, keeps, lengths, sessions, adam, loadMs, weights, moments, plan, parameterOf };
}

/**
 * Averages one backward graph's gradient bucket across devices: all of it (DDP, ZeRO-0), or
 * only this device's shard, the others' leaving the device as soon as they are sent (ZeRO-2).
 */
async function reduceBucket(replica: Replica, env: Map<string, Tensor>, bucket: readonly string[], key: string): Promise<void> {
  const { exec, comm } = replica.run;
  const values: Record<string, Float32Array> = {};
  for (const parameter of bucket) values[parameter] = await exec.read(env.get(gradName(parameter)) as Tensor);
  for (const parameter of bucket) {
    if (replica.keeps(parameter)) continue;
    env.get(gradName(parameter))?.dispose();
    env.delete(gradName(parameter));
  }
  const op = replica.sharded
    ? ({ op: 'reduce-scatter-mean', owners: replica.owners } as const)
    : ({ op: 'all-reduce-mean' } as const);
  const reduced = await comm.collective(key, op, values);
  for (const [parameter, mean] of Object.entries(reduced)) exec.store.overwrite(env.get(gradName(parameter)) as Tensor, mean);
}

/** This device's slice of the batch, made once for every step (each step trains on the same batch). */
function placeSlice(replica: Replica): Tensors {
  const { run, job } = replica;
  const perDevice = job.batch / run.comm.size;
  return placeExamples(run.exec, batchSlice(job.model, job.batch, run.seed, run.comm.rank * perDevice, perDevice));
}

/** One training step on this device's slice of the batch: its loss and the (reduced) gradients it keeps. */
async function replicaStep(
  replica: Replica,
  examples: Tensors,
  step: number,
): Promise<{ loss: number; grads: Map<string, Tensor> }> {
  const { run, plan, sessions, weights, parameterOf } = replica;
  const { exec } = run;
  const env = new Map<string, Tensor>([...weights, ...Object.entries(examples)]);
  await runPlan(plan, sessions, env, exec, {
    afterRun: async (planned, index) => {
      const bucket = planned.outputs.flatMap((name) => parameterOf(name) ?? []);
      if (bucket.length > 0) await reduceBucket(replica, env, bucket, `step${step}/bucket${index}`);
    },
  });
  const loss = (await exec.read(env.get(LOSS) as Tensor))[0] ?? Number.NaN;
  env.get(LOSS)?.dispose();
  const grads = new Map<string, Tensor>();
  for (const [name, tensor] of env) {
    const parameter = parameterOf(name);
    if (parameter !== undefined) grads.set(parameter, tensor);
  }
  return { loss, grads };
}

/**
 * Trains a replica (or a ZeRO shard) for the run's steps; returns its averaged gradients, or its updated weights under
 * ZeRO, as the measured steps left them, and the step times of those and any extra timed steps.
 */
export async function runReplica(run: DeviceRun, job: DataParallelJob | ZeroJob): Promise<DeviceResult> {
  const { exec, comm } = run;
  if (!Number.isInteger(job.batch / comm.size))
    throw new Error(`a batch of ${job.batch} does not split over ${comm.size} devices`);
  exec.progress({ kind: 'loading-model', model: job.model.id });
  const measurement = exec.meter.start(job.model.id);
  const replica = await openReplica(run, job);
  const { optimizer, weights, moments } = replica;
  const atRestBytes = measurement.counted();
  const examples = placeSlice(replica);

  let grads = new Map<string, Tensor>();
  let loss = 0;
  const trainStep = async (step: number): Promise<void> => {
    for (const tensor of grads.values()) tensor.dispose();
    ({ loss, grads } = await replicaStep(replica, examples, step));
    if (!optimizer) return;
    const state = { weights, grads, moments, lengths: replica.lengths };
    await adamStep(
      run,
      replica.adam,
      step + 1,
      optimizer.learningRate,
      state,
      replica.sharded ? `step${step}/weights` : undefined,
    );
  };
  const measuredMs = await runMeasuredSteps(run, measurement, trainStep);
  const heldBytes = measurement.counted();

  // What the one-device reference must match: the averaged gradients, or the updated weights.
  const tensors: Record<string, Float32Array> = {};
  for (const [name, tensor] of optimizer ? weights : grads) tensors[name] = await exec.read(tensor);
  const memory = measurement.finish(atRestBytes, heldBytes);
  const measuredLoss = loss;
  // Extra Adam steps move the weights on; what they compare and the memory figures are already taken.
  const stepTimes = await runTimedSteps(run, measuredMs, trainStep);

  for (const tensor of [...grads.values(), ...weights.values(), ...[...moments.values()].flatMap((s) => [s.m, s.v])])
    tensor.dispose();
  disposeAll([examples]);
  for (const session of [...replica.sessions, ...(replica.adam ? [replica.adam] : [])]) await session.release();
  return deviceResult(run, memory, { stepTimes, loadMs: replica.loadMs, loss: measuredLoss, tensors, spans: [] });
}

/**
 * Adam on the parameters whose moments this device holds. Replicas (no `gatherKey`) update
 * their own copy in place; shards send their updated slice and gather everyone's.
 */
async function adamStep(
  run: DeviceRun,
  adam: Session | undefined,
  t: number,
  learningRate: number,
  state: OptimizerState,
  gatherKey: string | undefined,
): Promise<void> {
  const { exec, comm } = run;
  if (!adam) throw new Error('no Adam graph loaded');
  const { stepSize, bias2Sqrt } = adamScalars(learningRate, t);
  const updated: Record<string, Float32Array> = {};
  for (const [name, moments] of state.moments) {
    const length = state.lengths.get(name) ?? 0;
    const weight = state.weights.get(name);
    const grad = state.grads.get(name);
    if (!weight || !grad) throw new Error(`no weight or gradient for ${name}`);
    const T = ADAM_TENSORS;
    const out = await exec.run(adam, {
      [T.param]: exec.store.flatView(weight, length),
      [T.grad]: exec.store.flatView(grad, length),
      [T.m]: moments.m,
      [T.v]: moments.v,
      [T.stepSize]: exec.scalar(stepSize),
      [T.bias2Sqrt]: exec.scalar(bias2Sqrt),
    });
    moments.m.dispose();
    moments.v.dispose();
    state.moments.set(name, { m: out[T.nextM] as Tensor, v: out[T.nextV] as Tensor });
    const next = out[T.nextParam] as Tensor;
    if (gatherKey) updated[name] = await exec.read(next);
    else exec.store.copyInto(weight, next);
    next.dispose();
  }
  if (!gatherKey) return;
  const all: TensorSet = await comm.collective(gatherKey, { op: 'all-gather' }, updated);
  for (const [name, values] of Object.entries(all)) exec.store.overwrite(state.weights.get(name) as Tensor, values);
}
