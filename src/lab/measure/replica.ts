/**
 * A data-parallel replica: the whole model on this device, trained on its slice of the batch.
 * Each backward graph's parameter gradients form a bucket that is averaged across devices as
 * soon as it exists, as DistributedDataParallel's bucketed all-reduce does. With Adam (a ZeRO
 * job), stage 0 keeps every gradient and moment on every device; stage 2 keeps only this
 * device's shard of both, reduce-scattering each bucket and all-gathering the updated weights.
 */
import { adamScalars, FEATURES, gradName, gradientOf, LABELS, LOSS, TOKENS } from '../../graphs/runtime';
import { deviceResult, elementCount, placeWeights, placeZeros, type DeviceRun } from './cluster-device';
import type { DataParallelJob, DeviceResult, TensorSet, ZeroJob } from './cluster-jobs';
import type { Session, Tensor } from './executor';
import { batchSlice } from './feeds';
import { partitionParameters } from './partition';
import { runPlan } from './run-plan';
import { planStep } from './step-plan';

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

/** Trains a replica (or a ZeRO shard) for the run's steps; returns its averaged gradients, or its updated weights under ZeRO. */
export async function runReplica(run: DeviceRun, job: DataParallelJob | ZeroJob): Promise<DeviceResult> {
  const { exec, comm } = run;
  const { model } = job;
  const { rank, size } = comm;
  const optimizer = job.kind === 'zero' ? job : undefined;
  const sharded = optimizer?.stage === 2;
  const owners = partitionParameters(model.parameters, size);
  // Whose gradients and optimizer state this device keeps after each bucket is reduced.
  const keeps = (name: string): boolean => !sharded || owners[name] === rank;
  const lengths = new Map(model.parameters.map((p) => [p.name, elementCount(p.shape)]));
  const perDevice = job.batch / size;
  if (!Number.isInteger(perDevice)) throw new Error(`a batch of ${job.batch} does not split over ${size} devices`);

  exec.progress(`loading ${model.id}`);
  const measurement = exec.meter.start(model.id);
  const loadStart = exec.now();
  const sessions = await exec.openAll(model.graphs, (name) => name !== LOSS);
  const adam = optimizer ? await exec.open(optimizer.adam, () => true) : undefined;
  const loadMs = exec.now() - loadStart;
  const weights = placeWeights(run, model);
  // Adam's two moments per parameter, zero before the first step (torch.optim.Adam allocates
  // them at the first step; placing them up front shows them in "at rest").
  const moments = new Map<string, Moments>();
  if (optimizer)
    for (const [name, length] of lengths)
      if (keeps(name)) moments.set(name, { m: placeZeros(run, length), v: placeZeros(run, length) });
  const atRestBytes = measurement.counted();

  const parameterOf = (name: string): string | undefined => {
    const parameter = gradientOf(name);
    return parameter !== undefined && lengths.has(parameter) ? parameter : undefined;
  };
  const plan = planStep(
    model.graphs,
    new Set([...weights.keys(), FEATURES, TOKENS, LABELS]),
    (name) => name === LOSS || parameterOf(name) !== undefined,
  );
  let grads = new Map<string, Tensor>();
  let loss = 0;
  let stepMs = 0;
  for (let step = 0; step < run.steps; step++) {
    exec.progress(`step ${step + 1} of ${run.steps}`);
    const stepStart = exec.now();
    for (const tensor of grads.values()) tensor.dispose();
    const data = batchSlice(model, job.batch, run.seed, rank * perDevice, perDevice);
    const env = new Map<string, Tensor>([...weights, ...Object.entries(data).map(([n, f]) => [n, exec.host(f)] as const)]);
    await runPlan(plan, sessions, env, exec, {
      afterRun: async (planned, index) => {
        const bucket = planned.outputs.flatMap((name) => parameterOf(name) ?? []);
        if (bucket.length === 0) return;
        const values: Record<string, Float32Array> = {};
        for (const parameter of bucket) values[parameter] = await exec.read(env.get(gradName(parameter)) as Tensor);
        // A shard's other gradients leave this device as soon as they are sent.
        for (const parameter of bucket) {
          if (keeps(parameter)) continue;
          env.get(gradName(parameter))?.dispose();
          env.delete(gradName(parameter));
        }
        const reduced = await comm.collective(
          `step${step}/bucket${index}`,
          sharded ? { op: 'reduce-scatter-mean', owners } : { op: 'all-reduce-mean' },
          values,
        );
        for (const [parameter, mean] of Object.entries(reduced))
          exec.store.overwrite(env.get(gradName(parameter)) as Tensor, mean);
      },
    });
    loss = (await exec.read(env.get(LOSS) as Tensor))[0] ?? Number.NaN;
    env.get(LOSS)?.dispose();
    grads = new Map(
      [...env].flatMap(([name, tensor]) => {
        const parameter = parameterOf(name);
        return parameter === undefined ? [] : [[parameter, tensor] as const];
      }),
    );
    if (optimizer)
      await adamStep(
        run,
        adam,
        step + 1,
        optimizer.learningRate,
        { weights, grads, moments, lengths },
        sharded ? `step${step}/weights` : undefined,
      );
    stepMs = exec.now() - stepStart;
    exec.progress(`step ${step + 1} of ${run.steps}`, { step: step + 1, bytes: measurement.aboveBaseline() });
  }
  const heldBytes = measurement.counted();

  // What the one-device reference must match: the averaged gradients, or the updated weights.
  const compared = optimizer ? weights : grads;
  const tensors: Record<string, Float32Array> = {};
  for (const [name, tensor] of compared) tensors[name] = await exec.read(tensor);
  for (const tensor of [...grads.values(), ...weights.values(), ...[...moments.values()].flatMap((s) => [s.m, s.v])])
    tensor.dispose();
  for (const session of [...sessions, ...(adam ? [adam] : [])]) await session.release();
  return deviceResult(run, measurement, { atRestBytes, heldBytes }, { stepMs, loadMs, loss, tensors, spans: [] });
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
    const out = await exec.run(adam, {
      p: exec.store.flatView(weight, length),
      g: exec.store.flatView(grad, length),
      m: moments.m,
      v: moments.v,
      step_size: exec.scalar(stepSize),
      bias2_sqrt: exec.scalar(bias2Sqrt),
    });
    moments.m.dispose();
    moments.v.dispose();
    state.moments.set(name, { m: out['m_next'] as Tensor, v: out['v_next'] as Tensor });
    const next = out['p_next'] as Tensor;
    if (gatherKey) updated[name] = await exec.read(next);
    else exec.store.copyInto(weight, next);
    next.dispose();
  }
  if (!gatherKey) return;
  const all: TensorSet = await comm.collective(gatherKey, { op: 'all-gather' }, updated);
  for (const [name, values] of Object.entries(all)) exec.store.overwrite(state.weights.get(name) as Tensor, values);
}
