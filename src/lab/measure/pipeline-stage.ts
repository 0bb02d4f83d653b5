/**
 * A pipeline stage: this device holds a slice of the layers (and the head, on the last stage),
 * runs micro-batches through it in the 1F1B order, receives activations from the stage before
 * and gradients from the stage after, and accumulates its parameters' gradients over the
 * micro-batches on the device.
 */
import {
  ACCUMULATE_TENSORS,
  activationName,
  FEATURES,
  gradName,
  gradientOf,
  LABELS,
  LOSS,
  type ManifestGraph,
  type ManifestModel,
} from '../../graphs/browser-safe';
import { deviceResult, elementCount, placeWeights, runMeasuredSteps, runTimedSteps, type DeviceRun } from './cluster-device';
import type { ComputeSpan, DeviceResult, PipelineJob } from './cluster-job';
import type { Session, Tensor, Tensors } from './executor';
import { batchSlice } from './feeds';
import { disposeAll, placeExamples } from './placed-examples';
import { feedsFor } from './run-plan';
import { oneForwardOneBackward } from './schedule';

/** The graphs stage `rank` runs: its forward and backward slice, and the loss on the last stage. */
function stageGraphs(
  job: PipelineJob,
  rank: number,
  size: number,
): { forward: ManifestGraph; backward: ManifestGraph; loss: ManifestGraph | undefined } {
  const range = job.model.variant.ranges?.[rank];
  if (!range || job.model.variant.ranges?.length !== size) throw new Error(`${job.model.id} has no ${size}-stage split`);
  const slice = (role: ManifestGraph['role']) =>
    job.model.graphs.find((g) => g.role === role && g.layers?.[0] === range[0] && g.layers[1] === range[1]);
  const forward = slice('stage-forward');
  const backward = slice('stage-backward');
  if (!forward || !backward) throw new Error(`${job.model.id} has no graphs for layers ${range[0]}–${range[1]}`);
  return { forward, backward, loss: rank === size - 1 ? job.model.graphs.find((g) => g.role === 'loss') : undefined };
}

const inputsOf = (graphs: readonly (ManifestGraph | undefined)[]): Set<string> =>
  new Set(graphs.flatMap((g) => g?.inputs.map((i) => i.name) ?? []));

/** A stage ready to run micro-batches: its graphs and sessions, weights, and the names it passes on. */
interface Stage {
  readonly run: DeviceRun;
  readonly job: PipelineJob;
  readonly model: ManifestModel;
  /** Examples per micro-batch. */
  readonly micro: number;
  readonly graphs: ReturnType<typeof stageGraphs>;
  readonly sessions: {
    readonly forward: Session;
    readonly backward: Session;
    readonly loss: Session | undefined;
    readonly accumulate: Session;
  };
  readonly weights: ReadonlyMap<string, Tensor>;
  /** Flat lengths of this stage's parameters. */
  readonly lengths: ReadonlyMap<string, number>;
  /** Time to create the sessions, in milliseconds. */
  readonly loadMs: number;
  /** What enters the stage (`x` or an activation) and what leaves it. */
  readonly inputName: string;
  readonly outputName: string;
}

/** This stage's parameter a gradient name belongs to, or undefined. */
function stageParameter(stage: Stage, name: string): string | undefined {
  const parameter = gradientOf(name);
  return parameter !== undefined && stage.lengths.has(parameter) ? parameter : undefined;
}

/** Runs one of the stage's graphs over `env`. */
function runGraph(stage: Stage, session: Session, env: ReadonlyMap<string, Tensor>, graph: ManifestGraph): Promise<Tensors> {
  return stage.run.exec.run(
    session,
    feedsFor(
      graph.file,
      graph.inputs.map((i) => i.name),
      (name) => env.get(name),
    ),
  );
}

/** A received tensor lands in this device's memory, as a P2P copy would. */
async function receive(stage: Stage, key: string): Promise<Tensor> {
  const [entry] = Object.values(await stage.run.comm.recv(key));
  if (!entry) throw new Error(`empty message ${key}`);
  return stage.run.exec.store.place({ data: entry, dims: [stage.micro, stage.model.shapes.hidden] });
}

/**
 * Each micro-batch's examples this stage reads (the features on the first stage, the labels on
 * the last), made once for every step: each step trains on the same batch.
 */
function placeMicroBatches(stage: Stage): Tensors[] {
  const { run, job, model, micro } = stage;
  const reads = inputsOf([stage.graphs.forward, stage.graphs.loss]);
  return Array.from({ length: job.microBatches }, (_, index) => {
    const slice = batchSlice(model, job.batch, run.seed, index * micro, micro);
    return placeExamples(run.exec, Object.fromEntries(Object.entries(slice).filter(([name]) => reads.has(name))));
  });
}

/** Milliseconds since the epoch, comparable across workers. */
const epochNow = (stage: Stage): number => performance.timeOrigin + stage.run.exec.now();

/**
 * One micro-batch's forward through the stage (and the loss on the last stage). Returns what the
 * micro-batch holds until its backward, and its loss (NaN before the last stage).
 */
async function forwardMicroBatch(
  stage: Stage,
  step: number,
  microIndex: number,
  examples: Tensors,
  spans: ComputeSpan[],
): Promise<{ held: Map<string, Tensor>; loss: number }> {
  const { run, graphs, sessions } = stage;
  const { exec, comm } = run;
  const key = `step${step}/micro${microIndex}`;
  const input = comm.rank === 0 ? examples[FEATURES] : await receive(stage, `act/${key}`);
  if (!input) throw new Error(`stage ${comm.rank} has no input for micro-batch ${microIndex}`);
  const env = new Map<string, Tensor>([...stage.weights, [stage.inputName, input]]);
  const start = epochNow(stage);
  for (const [name, tensor] of Object.entries(await runGraph(stage, sessions.forward, env, graphs.forward)))
    env.set(name, tensor);
  let loss = Number.NaN;
  if (sessions.loss && graphs.loss) {
    const labels = examples[LABELS];
    if (!labels) throw new Error(`the last stage has no labels for micro-batch ${microIndex}`);
    env.set(LABELS, labels);
    const out = await runGraph(stage, sessions.loss, env, graphs.loss);
    loss = (await exec.read(out[LOSS] as Tensor))[0] ?? Number.NaN;
    out[LOSS]?.dispose();
    for (const [name, tensor] of Object.entries(out)) if (name !== LOSS) env.set(name, tensor);
  } else {
    comm.send(comm.rank + 1, `act/${key}`, { [stage.outputName]: await exec.read(env.get(stage.outputName) as Tensor) });
    // Sent on; kept only if this stage's backward reads it (ReLU's backward reads its output).
    if (!graphs.backward.inputs.some((i) => i.name === stage.outputName)) {
      env.get(stage.outputName)?.dispose();
      env.delete(stage.outputName);
    }
  }
  // Spans end once the device finished the work (WebGPU runs asynchronously to the page).
  await exec.store.settle();
  spans.push({ rank: comm.rank, kind: 'forward', micro: microIndex, start, end: epochNow(stage) });
  for (const name of stage.weights.keys()) env.delete(name);
  return { held: env, loss };
}

/**
 * One micro-batch's backward through the stage: the incoming gradient (received, or the loss
 * graph's), the input gradient sent back, and this micro-batch's parameter gradients added to
 * those accumulated so far (on the device, with the accumulate graph).
 */
async function backwardMicroBatch(
  stage: Stage,
  step: number,
  microIndex: number,
  env: Map<string, Tensor>,
  examples: Tensors,
  accumulated: Map<string, Tensor>,
  spans: ComputeSpan[],
): Promise<void> {
  const { run, graphs, sessions } = stage;
  const { exec, comm } = run;
  const key = `step${step}/micro${microIndex}`;
  if (!sessions.loss) env.set(gradName(stage.outputName), await receive(stage, `grad/${key}`));
  for (const [name, tensor] of stage.weights) env.set(name, tensor);
  const start = epochNow(stage);
  const out = await runGraph(stage, sessions.backward, env, graphs.backward);
  const inputGrad = out[gradName(stage.inputName)];
  if (inputGrad && comm.rank > 0) comm.send(comm.rank - 1, `grad/${key}`, { [stage.inputName]: await exec.read(inputGrad) });
  inputGrad?.dispose();
  // This micro-batch's parameter gradients (the head's came from the loss graph).
  for (const [name, tensor] of [...Object.entries(out), ...env]) {
    const parameter = stageParameter(stage, name);
    if (parameter === undefined) continue;
    const previous = accumulated.get(parameter);
    if (!previous) {
      accumulated.set(parameter, tensor);
      continue;
    }
    const length = stage.lengths.get(parameter) ?? 0;
    const out = await exec.run(sessions.accumulate, {
      [ACCUMULATE_TENSORS.a]: exec.store.flatView(previous, length),
      [ACCUMULATE_TENSORS.b]: exec.store.flatView(tensor, length),
    });
    previous.dispose();
    tensor.dispose();
    accumulated.set(parameter, out[ACCUMULATE_TENSORS.sum] as Tensor);
  }
  await exec.store.settle();
  spans.push({ rank: comm.rank, kind: 'backward', micro: microIndex, start, end: epochNow(stage) });
  // What this micro-batch alone held; weights, gradients and the examples every step reads stay.
  for (const [name, tensor] of env) {
    const kept = stage.weights.has(name) || stageParameter(stage, name) !== undefined || examples[name] === tensor;
    if (!kept) tensor.dispose();
  }
}

/** Opens the stage's sessions and places its weights. */
async function openStage(run: DeviceRun, job: PipelineJob): Promise<Stage> {
  const { exec, comm } = run;
  const { rank, size } = comm;
  const { model } = job;
  const micro = job.batch / job.microBatches;
  if (!Number.isInteger(micro)) throw new Error(`a batch of ${job.batch} does not split into ${job.microBatches} micro-batches`);
  const graphs = stageGraphs(job, rank, size);
  const stageInputs = inputsOf([graphs.forward, graphs.backward, graphs.loss]);
  const lengths = new Map(model.parameters.filter((p) => stageInputs.has(p.name)).map((p) => [p.name, elementCount(p.shape)]));
  const ordered = [graphs.forward, graphs.backward, ...(graphs.loss ? [graphs.loss] : []), job.accumulate];
  const loadStart = exec.now();
  const [forward, backward, ...rest] = await exec.openAll(ordered, (name) => name !== LOSS);
  const loadMs = exec.now() - loadStart;
  const accumulate = rest.at(-1);
  if (!forward || !backward || !accumulate) throw new Error('stage sessions missing');
  const firstLayer = graphs.forward.layers?.[0] ?? 0;
  const lastLayer = graphs.forward.layers?.[1] ?? 0;
  return {
    run,
    job,
    model,
    micro,
    graphs,
    sessions: { forward, backward, loss: graphs.loss ? rest[0] : undefined, accumulate },
    weights: placeWeights(run, model, (name) => lengths.has(name)),
    lengths,
    loadMs,
    inputName: rank === 0 ? FEATURES : activationName(firstLayer),
    outputName: activationName(lastLayer),
  };
}

/**
 * Trains this stage for the run's steps in the 1F1B order; returns its gradients (the mean over the batch) as the
 * measured steps left them, the step times of those and any extra timed steps, and the last step's compute spans.
 */
export async function runPipelineStage(run: DeviceRun, job: PipelineJob): Promise<DeviceResult> {
  const { exec, comm } = run;
  const { rank, size } = comm;
  const range = job.model.variant.ranges?.[rank];
  exec.progress({ kind: 'loading-layers', first: range?.[0] ?? 0, last: range?.[1] ?? 0 });
  const measurement = exec.meter.start(`stage ${rank}`);
  const stage = await openStage(run, job);
  const atRestBytes = measurement.counted();
  const examples = placeMicroBatches(stage);

  let accumulated = new Map<string, Tensor>();
  let spans: ComputeSpan[] = [];
  let lossSum = 0;
  const trainStep = async (step: number): Promise<void> => {
    for (const tensor of accumulated.values()) tensor.dispose();
    accumulated = new Map();
    spans = [];
    lossSum = 0;
    // What each micro-batch in flight holds between its forward and its backward.
    const held = new Map<number, Map<string, Tensor>>();
    for (const op of oneForwardOneBackward(rank, size, job.microBatches)) {
      if (op.kind === 'forward') {
        const forward = await forwardMicroBatch(stage, step, op.micro, examples[op.micro] ?? {}, spans);
        if (stage.sessions.loss) lossSum += forward.loss;
        held.set(op.micro, forward.held);
      } else {
        const env = held.get(op.micro) ?? new Map<string, Tensor>();
        held.delete(op.micro);
        await backwardMicroBatch(stage, step, op.micro, env, examples[op.micro] ?? {}, accumulated, spans);
      }
    }
  };
  const measuredMs = await runMeasuredSteps(run, measurement, trainStep);
  const heldBytes = measurement.counted();

  // Each micro-batch's loss is the mean over its own examples, so the step's gradient (the mean
  // over the whole batch) is the accumulated sum divided by the number of equal micro-batches.
  const tensors: Record<string, Float32Array> = {};
  for (const [name, tensor] of accumulated) tensors[name] = (await exec.read(tensor)).map((g) => g / job.microBatches);
  const memory = measurement.finish(atRestBytes, heldBytes);
  const loss = rank === size - 1 ? lossSum / job.microBatches : Number.NaN;
  const stepTimes = await runTimedSteps(run, measuredMs, trainStep);

  for (const tensor of [...accumulated.values(), ...stage.weights.values()]) tensor.dispose();
  disposeAll(examples);
  const sessions = stage.sessions;
  for (const session of [sessions.forward, sessions.backward, sessions.accumulate, ...(sessions.loss ? [sessions.loss] : [])])
    await session.release();
  return deviceResult(run, memory, { stepTimes, loadMs: stage.loadMs, loss, tensors, spans });
}
