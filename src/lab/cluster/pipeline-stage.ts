/**
 * A pipeline stage: this device holds a slice of the layers (and the head, on the last stage),
 * runs micro-batches through it in the 1F1B order, receives activations from the stage before
 * and gradients from the stage after, and accumulates its parameters' gradients over the
 * micro-batches on the device.
 */
import type { ManifestGraph } from '../../graphs/manifest';
import { batchSlice } from '../feeds';
import { feedsFor } from '../run-plan';
import { cpuTensor, placeWeight, type Session, type Tensor } from '../worker-gpu';
import {
  beginMeasure, countedBytes, deviceResult, flatView, openSessions, placeWeights, readFloats, type DeviceContext,
} from './device-context';
import type { ComputeSpan, DeviceResult, PipelineJob } from './protocol';
import { oneForwardOneBackward } from './schedule';

const GRAD = 'grad.';

/** The graphs stage `rank` runs: its forward and backward slice, and the loss on the last stage. */
function stageGraphs(job: PipelineJob, rank: number, size: number): { forward: ManifestGraph; backward: ManifestGraph; loss: ManifestGraph | undefined } {
  const range = job.model.variant.ranges?.[rank];
  if (!range || job.model.variant.ranges?.length !== size) throw new Error(`${job.model.id} has no ${size}-stage split`);
  const slice = (role: ManifestGraph['role']) => job.model.graphs.find((g) => g.role === role && g.layers?.[0] === range[0] && g.layers[1] === range[1]);
  const forward = slice('stage-forward');
  const backward = slice('stage-backward');
  if (!forward || !backward) throw new Error(`${job.model.id} has no graphs for layers ${range[0]}–${range[1]}`);
  return { forward, backward, loss: rank === size - 1 ? job.model.graphs.find((g) => g.role === 'loss') : undefined };
}

const inputsOf = (graphs: readonly (ManifestGraph | undefined)[]): Set<string> => new Set(graphs.flatMap((g) => g?.inputs.map((i) => i.name) ?? []));

export async function runPipelineStage(ctx: DeviceContext, job: PipelineJob): Promise<DeviceResult> {
  const { rank, size } = ctx.comm;
  const { model, microBatches } = job;
  const micro = job.batch / microBatches;
  if (!Number.isInteger(micro)) throw new Error(`a batch of ${job.batch} does not split into ${microBatches} micro-batches`);
  const graphs = stageGraphs(job, rank, size);
  const stageInputs = inputsOf([graphs.forward, graphs.backward, graphs.loss]);
  const lengths = new Map(model.parameters.filter((p) => stageInputs.has(p.name)).map((p) => [p.name, p.shape.reduce((a, b) => a * b, 1)]));
  const isGrad = (name: string): boolean => name.startsWith(GRAD) && lengths.has(name.slice(GRAD.length));
  const firstLayer = graphs.forward.layers?.[0] ?? 0;
  const lastLayer = graphs.forward.layers?.[1] ?? 0;
  const inputName = rank === 0 ? 'x' : `act${firstLayer}`;
  const outputName = `act${lastLayer}`;

  ctx.progress(`loading layers ${firstLayer}–${lastLayer}`);
  const mark = beginMeasure(ctx, `stage ${rank}`);
  const loadStart = performance.now();
  const ordered = [graphs.forward, graphs.backward, ...(graphs.loss ? [graphs.loss] : []), job.accumulate];
  const [forward, backward, ...rest] = await openSessions(ctx, ordered, (name) => name !== 'loss');
  const loss = graphs.loss ? rest[0] : undefined;
  const accumulate = rest.at(-1);
  if (!forward || !backward || !accumulate) throw new Error('stage sessions missing');
  const loadMs = performance.now() - loadStart;
  const weights = placeWeights(ctx, model, (name) => lengths.has(name));
  const setupBytes = countedBytes(ctx);

  const run = (session: Session, env: ReadonlyMap<string, Tensor>, graph: ManifestGraph): Promise<Record<string, Tensor>> =>
    ctx.gpu.guard(session.run(feedsFor(graph.file, graph.inputs.map((i) => i.name), (name) => env.get(name)))) as Promise<Record<string, Tensor>>;
  // A received tensor lands in this device's memory, as a P2P copy would.
  const receive = async (key: string): Promise<Tensor> => {
    const [entry] = Object.values(await ctx.comm.recv(key));
    if (!entry) throw new Error(`empty message ${key}`);
    return placeWeight(ctx.ort, ctx.gpu, { data: entry, dims: [micro, model.shapes.hidden] });
  };
  // Spans end once the device finished the work (WebGPU runs asynchronously to the page).
  const settle = async (): Promise<void> => ctx.gpu.device?.queue.onSubmittedWorkDone();

  let accumulated = new Map<string, Tensor>();
  let spans: ComputeSpan[] = [];
  let lossSum = 0;
  let stepMs = 0;
  for (let step = 0; step < ctx.steps; step++) {
    ctx.progress(`step ${step + 1} of ${ctx.steps}`);
    const stepStart = performance.now();
    for (const tensor of accumulated.values()) tensor.dispose();
    accumulated = new Map();
    spans = [];
    lossSum = 0;
    // What each micro-batch in flight holds between its forward and its backward.
    const held = new Map<number, Map<string, Tensor>>();
    for (const op of oneForwardOneBackward(rank, size, microBatches)) {
      const key = `step${step}/micro${op.micro}`;
      if (op.kind === 'forward') {
        const data = batchSlice(model, job.batch, ctx.seed, op.micro * micro, micro);
        const input = rank === 0 ? cpuTensor(ctx.ort, data['x'] ?? { data: new Float32Array(), dims: [] }) : await receive(`act/${key}`);
        const env = new Map<string, Tensor>([...weights, [inputName, input]]);
        const start = performance.timeOrigin + performance.now();
        for (const [name, tensor] of Object.entries(await run(forward, env, graphs.forward))) env.set(name, tensor);
        if (loss && graphs.loss) {
          env.set('labels', cpuTensor(ctx.ort, data['labels'] ?? { data: new BigInt64Array(), dims: [] }));
          const out = await run(loss, env, graphs.loss);
          lossSum += (await readFloats(out['loss'] as Tensor))[0] ?? Number.NaN;
          out['loss']?.dispose();
          for (const [name, tensor] of Object.entries(out)) if (name !== 'loss') env.set(name, tensor);
        } else {
          ctx.comm.send(rank + 1, `act/${key}`, { [outputName]: await readFloats(env.get(outputName) as Tensor) });
          // Sent on; kept only if this stage's backward reads it (ReLU's backward reads its output).
          if (!graphs.backward.inputs.some((i) => i.name === outputName)) {
            env.get(outputName)?.dispose();
            env.delete(outputName);
          }
        }
        await settle();
        spans.push({ rank, kind: 'forward', micro: op.micro, start, end: performance.timeOrigin + performance.now() });
        for (const name of weights.keys()) env.delete(name);
        held.set(op.micro, env);
      } else {
        const env = held.get(op.micro) ?? new Map<string, Tensor>();
        held.delete(op.micro);
        if (!loss) env.set(`${GRAD}${outputName}`, await receive(`grad/${key}`));
        for (const [name, tensor] of weights) env.set(name, tensor);
        const start = performance.timeOrigin + performance.now();
        const out = await run(backward, env, graphs.backward);
        const inputGrad = out[`${GRAD}${inputName}`];
        if (inputGrad && rank > 0) ctx.comm.send(rank - 1, `grad/${key}`, { [inputName]: await readFloats(inputGrad) });
        inputGrad?.dispose();
        // This micro-batch's parameter gradients (the head's came from the loss graph).
        const fresh = [...Object.entries(out), ...env].filter(([name]) => isGrad(name));
        for (const [name, tensor] of fresh) {
          const param = name.slice(GRAD.length);
          const previous = accumulated.get(param);
          if (!previous) {
            accumulated.set(param, tensor);
            continue;
          }
          const length = lengths.get(param) ?? 0;
          const sum = (await ctx.gpu.guard(accumulate.run({ a: flatView(ctx, previous, length), b: flatView(ctx, tensor, length) })))['sum'] as Tensor;
          previous.dispose();
          tensor.dispose();
          accumulated.set(param, sum);
        }
        await settle();
        spans.push({ rank, kind: 'backward', micro: op.micro, start, end: performance.timeOrigin + performance.now() });
        for (const [name, tensor] of env) if (!weights.has(name) && !isGrad(name)) tensor.dispose();
      }
    }
    stepMs = performance.now() - stepStart;
    ctx.progress(`step ${step + 1} of ${ctx.steps}`, { step: step + 1, bytes: countedBytes(ctx) - mark.baselineBytes });
  }
  const heldBytes = countedBytes(ctx);

  // Each micro-batch's loss is the mean over its own examples, so the step's gradient (the mean
  // over the whole batch) is the accumulated sum divided by the number of equal micro-batches.
  const tensors: Record<string, Float32Array> = {};
  for (const [name, tensor] of accumulated) tensors[name] = (await readFloats(tensor)).map((g) => g / microBatches);
  for (const tensor of [...accumulated.values(), ...weights.values()]) tensor.dispose();
  for (const session of [forward, backward, accumulate, ...(loss ? [loss] : [])]) await session.release();
  return deviceResult(ctx, mark, { setupBytes, heldBytes }, { stepMs, loadMs, loss: rank === size - 1 ? lossSum / microBatches : Number.NaN, tensors, spans });
}
