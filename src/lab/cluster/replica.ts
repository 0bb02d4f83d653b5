/**
 * A data-parallel replica: the whole model on this device, trained on its slice of the batch.
 * Each backward graph's parameter gradients form a bucket that is averaged across devices as
 * soon as it exists, as DistributedDataParallel's bucketed all-reduce does. With Adam (a ZeRO
 * job), stage 0 keeps every gradient and moment on every device; stage 2 keeps only this
 * device's shard of both, reduce-scattering each bucket and all-gathering the updated weights.
 */
import { adamScalars } from '../../graphs/optimizer';
import { batchSlice } from '../feeds';
import { runPlan } from '../run-plan';
import { planStep } from '../step-plan';
import { cpuTensor, type Session, type Tensor } from '../worker-gpu';
import {
  beginMeasure, copyInto, countedBytes, deviceResult, flatView, openSessions, overwrite, placeWeights, placeZeros, readFloats,
  type DeviceContext,
} from './device-context';
import { partitionParameters } from './partition';
import type { DataParallelJob, DeviceResult, TensorSet, ZeroJob } from './protocol';

const GRAD = 'grad.';

export async function runReplica(ctx: DeviceContext, job: DataParallelJob | ZeroJob): Promise<DeviceResult> {
  const { model } = job;
  const { rank, size } = ctx.comm;
  const optimizer = job.kind === 'zero' ? job : undefined;
  const sharded = optimizer?.stage === 2;
  const owners = partitionParameters(model.parameters, size);
  // Whose gradients and optimizer state this device keeps after each bucket is reduced.
  const keeps = (name: string): boolean => !sharded || owners[name] === rank;
  const lengths = new Map(model.parameters.map((p) => [p.name, p.shape.reduce((a, b) => a * b, 1)]));
  const perDevice = job.batch / size;
  if (!Number.isInteger(perDevice)) throw new Error(`a batch of ${job.batch} does not split over ${size} devices`);

  ctx.progress(`loading ${model.id}`);
  const mark = beginMeasure(ctx, model.id);
  const loadStart = performance.now();
  const sessions = await openSessions(ctx, model.graphs, (name) => name !== 'loss');
  const [adam] = optimizer ? await openSessions(ctx, [optimizer.adam], () => true) : [];
  const loadMs = performance.now() - loadStart;
  const weights = placeWeights(ctx, model);
  // Adam's two moments per parameter, zero before the first step (torch.optim.Adam allocates
  // them at the first step; placing them up front shows them in "at rest").
  const moments = new Map<string, { m: Tensor; v: Tensor }>();
  if (optimizer) for (const [name, length] of lengths) if (keeps(name)) moments.set(name, { m: placeZeros(ctx, length), v: placeZeros(ctx, length) });
  const setupBytes = countedBytes(ctx);

  const isGrad = (name: string): boolean => name.startsWith(GRAD) && lengths.has(name.slice(GRAD.length));
  const plan = planStep(model.graphs, new Set([...weights.keys(), 'x', 'tokens', 'labels']), (name) => name === 'loss' || isGrad(name));
  let grads = new Map<string, Tensor>();
  let loss = 0;
  let stepMs = 0;
  for (let step = 0; step < ctx.steps; step++) {
    ctx.progress(`step ${step + 1} of ${ctx.steps}`);
    const stepStart = performance.now();
    for (const tensor of grads.values()) tensor.dispose();
    const data = batchSlice(model, job.batch, ctx.seed, rank * perDevice, perDevice);
    const env = new Map<string, Tensor>([...weights, ...Object.entries(data).map(([n, f]) => [n, cpuTensor(ctx.ort, f)] as const)]);
    await runPlan(plan, sessions, env, ctx.gpu.guard, {
      afterRun: async (run, index) => {
        const bucket = run.outputs.filter(isGrad);
        if (bucket.length === 0) return;
        const values: Record<string, Float32Array> = {};
        for (const name of bucket) values[name.slice(GRAD.length)] = await readFloats(env.get(name) as Tensor);
        // A shard's other gradients leave this device as soon as they are sent.
        for (const name of bucket) {
          if (keeps(name.slice(GRAD.length))) continue;
          env.get(name)?.dispose();
          env.delete(name);
        }
        const reduced = await ctx.comm.collective(`step${step}/bucket${index}`, sharded ? { op: 'reduce-scatter-mean', owners } : { op: 'all-reduce-mean' }, values);
        for (const [name, mean] of Object.entries(reduced)) overwrite(ctx, env.get(GRAD + name) as Tensor, mean);
      },
    });
    loss = (await readFloats(env.get('loss') as Tensor))[0] ?? Number.NaN;
    env.get('loss')?.dispose();
    grads = new Map([...env].filter(([name]) => isGrad(name)).map(([name, t]) => [name.slice(GRAD.length), t]));
    if (optimizer) await adamStep(ctx, adam, step + 1, optimizer.learningRate, weights, grads, moments, lengths, sharded ? `step${step}/weights` : undefined);
    stepMs = performance.now() - stepStart;
    ctx.progress(`step ${step + 1} of ${ctx.steps}`, { step: step + 1, bytes: countedBytes(ctx) - mark.baselineBytes });
  }
  const heldBytes = countedBytes(ctx);

  // What the one-device reference must match: the averaged gradients, or the updated weights.
  const compared = optimizer ? weights : grads;
  const tensors: Record<string, Float32Array> = {};
  for (const [name, tensor] of compared) tensors[name] = await readFloats(tensor);
  for (const tensor of [...grads.values(), ...weights.values(), ...[...moments.values()].flatMap((s) => [s.m, s.v])]) tensor.dispose();
  for (const session of [...sessions, ...(adam ? [adam] : [])]) await session.release();
  return deviceResult(ctx, mark, { setupBytes, heldBytes }, { stepMs, loadMs, loss, tensors, spans: [] });
}

/**
 * Adam on the parameters whose moments this device holds. Replicas (no `gatherKey`) update
 * their own copy in place; shards send their updated slice and gather everyone's.
 */
async function adamStep(
  ctx: DeviceContext,
  adam: Session | undefined,
  t: number,
  learningRate: number,
  weights: ReadonlyMap<string, Tensor>,
  grads: ReadonlyMap<string, Tensor>,
  moments: Map<string, { m: Tensor; v: Tensor }>,
  lengths: ReadonlyMap<string, number>,
  gatherKey: string | undefined,
): Promise<void> {
  if (!adam) throw new Error('no Adam graph loaded');
  const { stepSize, bias2Sqrt } = adamScalars(learningRate, t);
  const updated: Record<string, Float32Array> = {};
  for (const [name, state] of moments) {
    const length = lengths.get(name) ?? 0;
    const weight = weights.get(name);
    const grad = grads.get(name);
    if (!weight || !grad) throw new Error(`no weight or gradient for ${name}`);
    const out = await ctx.gpu.guard(
      adam.run({
        p: flatView(ctx, weight, length),
        g: flatView(ctx, grad, length),
        m: state.m,
        v: state.v,
        step_size: new ctx.ort.Tensor('float32', Float32Array.of(stepSize), []),
        bias2_sqrt: new ctx.ort.Tensor('float32', Float32Array.of(bias2Sqrt), []),
      }),
    );
    state.m.dispose();
    state.v.dispose();
    moments.set(name, { m: out['m_next'] as Tensor, v: out['v_next'] as Tensor });
    const next = out['p_next'] as Tensor;
    if (gatherKey) updated[name] = await readFloats(next);
    else copyInto(ctx, weight, next);
    next.dispose();
  }
  if (!gatherKey) return;
  const all: TensorSet = await ctx.comm.collective(gatherKey, { op: 'all-gather' }, updated);
  for (const [name, values] of Object.entries(all)) overwrite(ctx, weights.get(name) as Tensor, values);
}
