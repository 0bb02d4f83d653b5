/**
 * A single run: one model variant (manifest entry) on one device. Opens its graphs, places its
 * weights, runs its training steps (each split into micro-batches where the model accumulates),
 * and reports what was counted, the loss and the gradients. The step loop of each side of every
 * single experiment.
 */
import {
  accInName,
  accOutName,
  FEATURES,
  gradName,
  isAccOut,
  LABELS,
  LOSS,
  LOSS_SCALE,
  TOKENS,
  type ManifestModel,
} from '../../graphs/browser-safe';
import type { Backend } from './executor';
import type { Executor, Session, Tensor, Tensors } from './executor';
import { batchSlice, weightFeeds } from './feeds';
import type { MeasuredMemory } from './measured-memory';
import type { Measurement } from './meter';
import { disposeAll, placeExamples } from './placed-examples';
import { runPlan } from './run-plan';
import { planStep, type PlannedRun } from './step-plan';
import { summariseStepTimes, type StepTimes } from './step-times';
import { residentWeights, streamedWeights, type WeightPlacement } from './weight-placement';

/** Where a single run keeps its weights between uses. */
export type WeightLocation = 'resident' | 'streamed';

/** Where a single run keeps parameter gradients during a step. */
export type GradientLocation = 'gpu' | 'host';

/** One single run: a model, and how its step's batch is split. */
export interface SingleRunSpec {
  readonly model: ManifestModel;
  /** Examples per step (split into `microBatches` for accumulating models). */
  readonly batch: number;
  /** Micro-batches per step; above 1 only for models with `variant.accumulate`. */
  readonly microBatches: number;
  /** Seed of the weights and the data, so both sides see identical inputs. */
  readonly seed: number;
  /** Steps to run and measure, after a warm-up step on WebGPU. */
  readonly steps: number;
  /**
   * Steps to time in all (default: the measured steps alone). Steps beyond `steps` run after the memory measurement
   * has ended, so they change no memory figure; a loop that retains its steps' results runs none.
   */
  readonly timedSteps?: number;
  /**
   * A training loop rather than one measured step: gradients stay on the GPU, and with
   * `retain` every step's results are kept alive, the way `total_loss += loss` keeps each
   * step's graph in PyTorch; without it each step drops the previous step's results.
   */
  readonly loop?: { readonly retain: boolean };
  /**
   * Where the weights live: `resident` (default) uploads them once and keeps them on the GPU;
   * `streamed` keeps them in host memory and uploads each graph's weights just before it runs,
   * prefetching the next graph's (parameter offload). Streaming needs WebGPU.
   */
  readonly weights?: WeightLocation;
  /**
   * Where parameter gradients go as each graph produces them: `gpu` keeps them there until the
   * step ends (as `.grad` stays on the GPU); `host` reads each back as soon as it is made (as
   * ZeRO-Offload streams gradients to the CPU). Defaults to `gpu` in a loop, else `host`.
   */
  readonly gradients?: GradientLocation;
}

/** Host↔GPU traffic of one step (the last measured or timed one). */
export interface StepTransfer {
  /** Weight bytes uploaded during the step (0 when the weights are resident). */
  readonly uploadedBytes: number;
  /** Milliseconds spent creating upload buffers and handing them the weights. */
  readonly uploadMs: number;
  /** Parameter-gradient bytes read back to the host during the step (WebGPU; 0 when they stay on the GPU). */
  readonly downloadedBytes: number;
}

/** What one single run measured. */
export interface SingleRunResult {
  readonly backend: Backend;
  /** Adapter description (`swiftshader`, a vendor and architecture), null on WASM. */
  readonly adapter: string | null;
  readonly memory: MeasuredMemory;
  /** Counted bytes above the baseline after each step, in order. */
  readonly stepBytes: readonly number[];
  /** Wall time of a step, the median of the timed steps, in milliseconds. */
  readonly stepMs: number;
  /** The timed steps' median, range and count. */
  readonly stepTimes: StepTimes;
  /** Host↔GPU traffic of the last step. */
  readonly transfer: StepTransfer;
  /** Time to create the sessions, in milliseconds. */
  readonly loadMs: number;
  readonly loss: number;
  /** Parameter gradients by parameter name (fp32). */
  readonly gradients: Readonly<Record<string, Float32Array>>;
}

/** A single run ready to step: its sessions, plan and weights, and which names are its results. */
interface OpenSingleRun {
  readonly sessions: readonly Session[];
  readonly plan: readonly PlannedRun[];
  readonly placement: WeightPlacement;
  readonly parameterGradients: ReadonlySet<string>;
  readonly isResult: (name: string) => boolean;
  readonly loadMs: number;
}

/**
 * Opens the run's model's graphs and places its weights. Results (loss, gradients, accumulators)
 * are kept to the end of the step; the loss is read back per run, and gradients too where they
 * go to the host. In a loop they stay on the GPU (as in a framework), so what a step keeps shows there.
 */
async function openSingleRun(exec: Executor, spec: SingleRunSpec): Promise<OpenSingleRun> {
  const { model } = spec;
  const parameterGradients = new Set(model.parameters.map((p) => gradName(p.name)));
  const gradientsOn = spec.gradients ?? (spec.loop ? 'gpu' : 'host');
  const isReadBack = (name: string): boolean => name === LOSS || (gradientsOn === 'host' && parameterGradients.has(name));
  const isResult = (name: string): boolean => name === LOSS || parameterGradients.has(name) || isAccOut(name);

  const loadStart = exec.now();
  // Intermediate outputs stay on the GPU and feed the next graph; results come back to the host.
  const sessions = await exec.openAll(model.graphs, (name) => !isReadBack(name));
  const loadMs = exec.now() - loadStart;

  const weightData = weightFeeds(model, spec.seed);
  const external = new Set([
    ...Object.keys(weightData),
    FEATURES,
    TOKENS,
    LABELS,
    LOSS_SCALE,
    ...model.parameters.map((p) => accInName(p.name)),
  ]);
  const plan = planStep(model.graphs, external, isResult);
  // Resident: on WebGPU the weights are uploaded once, shared by every graph of the step, as a
  // framework keeps them (fed as host tensors, each session would upload its own copy).
  // Streamed: they stay host arrays and each graph's are uploaded around its run.
  const placement =
    spec.weights === 'streamed'
      ? streamedWeights(exec.store, weightData, plan, exec.now)
      : residentWeights(exec.store, weightData);
  return { sessions, plan, placement, parameterGradients, isResult, loadMs };
}

/** What one step left: its results (loss, gradients or accumulators), its loss and the gradient bytes read back. */
interface StepOutcome {
  readonly results: Tensors;
  readonly loss: number;
  readonly downloadedBytes: number;
}

/** How many micro-batches a step of this run is split into (1 for models that do not accumulate). */
function microBatchCount(spec: SingleRunSpec): number {
  const microBatches = spec.model.variant.accumulate ? spec.microBatches : 1;
  const microBatch = spec.batch / microBatches;
  if (!Number.isInteger(microBatch) || microBatch < 1)
    throw new Error(`batch ${spec.batch} does not split into ${microBatches} micro-batches`);
  return microBatches;
}

/**
 * Each micro-batch's examples, made once for the whole run: every step trains on the same batch
 * (one seed), so a framework's loop that keeps its batch on the GPU is what this measures.
 */
function placeMicroBatches(exec: Executor, spec: SingleRunSpec): Tensors[] {
  const microBatches = microBatchCount(spec);
  const microBatch = spec.batch / microBatches;
  return Array.from({ length: microBatches }, (_, micro) =>
    placeExamples(exec, batchSlice(spec.model, spec.batch, spec.seed, micro * microBatch, microBatch)),
  );
}

/**
 * Zeroed gradients for the first micro-batch's `acc_in.*`, placed once per run where the model
 * runs: a host tensor would be uploaded again on every step.
 */
function placeZeroAccumulators(exec: Executor, model: ManifestModel): Tensors {
  if (!model.variant.accumulate) return {};
  return Object.fromEntries(
    model.parameters.map((p) => [
      accInName(p.name),
      exec.store.place({ data: new Float32Array(p.shape.reduce((a, b) => a * b, 1)), dims: p.shape }),
    ]),
  );
}

/**
 * One training step: the batch split into micro-batches, each run through the plan with the
 * gradients accumulated so far (`acc_in.*` → `acc_out.*`, starting from `zeros`) and its loss
 * scaled by 1/k.
 */
async function step(
  exec: Executor,
  spec: SingleRunSpec,
  open: OpenSingleRun,
  examples: readonly Tensors[],
  zeros: Readonly<Tensors>,
  measurement: Measurement,
): Promise<StepOutcome> {
  const { model } = spec;
  const microBatches = examples.length;
  let results: Tensors = {};
  let loss = 0;
  let downloadedBytes = 0;
  let accumulators: Readonly<Tensors> = zeros;
  for (const micro of examples) {
    const env = new Map<string, Tensor>([...Object.entries(micro), ...Object.entries(accumulators)]);
    env.set(LOSS_SCALE, exec.scalar(1 / microBatches));
    await runPlan(open.plan, open.sessions, env, exec, {
      feeds: (index) => open.placement.feeds(index),
      // The next graph's weights upload while this one executes.
      whileRunning: (index) => open.placement.prefetch(index),
      afterRun: (_, index, outputs) => {
        open.placement.release(index);
        measurement.sample();
        for (const [name, tensor] of Object.entries(outputs)) {
          if (exec.store.onDevice && tensor.location === 'cpu' && open.parameterGradients.has(name))
            downloadedBytes += (tensor.data as Float32Array).byteLength;
        }
      },
    });
    // Each micro-batch's loss is already scaled by 1/k, so the step's loss is their sum.
    const lossTensor = env.get(LOSS);
    loss += lossTensor ? ((await exec.read(lossTensor))[0] ?? Number.NaN) : Number.NaN;
    // This micro-batch's accumulated gradients are the next one's starting point.
    const next: Tensors = {};
    for (const p of model.parameters) {
      const out = env.get(accOutName(p.name));
      if (out) next[accInName(p.name)] = out;
    }
    // The zeros serve every step; only the previous micro-batch's sums are done with.
    if (accumulators !== zeros) for (const old of Object.values(accumulators)) old.dispose();
    accumulators = next;
    results = Object.fromEntries([...env].filter(([name]) => open.isResult(name)));
  }
  return { results, loss, downloadedBytes };
}

/** The step's parameter gradients on the host, by parameter name. */
async function gradientsOf(
  exec: Executor,
  model: ManifestModel,
  results: Readonly<Tensors>,
): Promise<Record<string, Float32Array>> {
  const gradients: Record<string, Float32Array> = {};
  for (const p of model.parameters) {
    const tensor = results[gradName(p.name)] ?? results[accOutName(p.name)];
    if (tensor) gradients[p.name] = await exec.read(tensor);
  }
  return gradients;
}

/**
 * Runs a single run's steps and measures them from the counted bytes at its start. A warm-up run
 * (`warmUp`) reports no progress samples; its buffers go with its sessions.
 */
export async function measureSingleRun(exec: Executor, spec: SingleRunSpec, warmUp = false): Promise<SingleRunResult> {
  const { model } = spec;
  if (!warmUp) exec.progress({ kind: 'loading-model', model: model.id });
  const measurement = exec.meter.start(model.id);
  const open = await openSingleRun(exec, spec);
  measurement.sample();
  const atRestBytes = measurement.counted();
  const examples = placeMicroBatches(exec, spec);
  const zeros = placeZeroAccumulators(exec, model);

  let outcome: StepOutcome = { results: {}, loss: 0, downloadedBytes: 0 };
  // What a leaky loop holds on to: every earlier step's gradients.
  const retained: Tensor[] = [];
  const stepBytes: number[] = [];
  const stepMs: number[] = [];
  let transfer: StepTransfer = { uploadedBytes: 0, uploadMs: 0, downloadedBytes: 0 };
  for (let s = 0; s < spec.steps; s++) {
    exec.progress(warmUp ? { kind: 'compiling-shaders', batch: spec.batch } : { kind: 'step', step: s + 1, steps: spec.steps });
    const stepStart = exec.now();
    // Drop the previous step's gradients before this one starts, as `zero_grad(set_to_none=True)`
    // does; kept, they would inflate this step's peak by a whole set of gradients.
    const previous = Object.entries(outcome.results);
    if (spec.loop?.retain) retained.push(...previous.filter(([name]) => name !== LOSS).map(([, t]) => t));
    else for (const [, tensor] of previous) tensor.dispose();
    outcome = await step(exec, spec, open, examples, zeros, measurement);
    stepMs.push(exec.now() - stepStart);
    transfer = { ...open.placement.takeTransfer(), downloadedBytes: outcome.downloadedBytes };
    measurement.sample();
    const bytes = measurement.aboveBaseline();
    stepBytes.push(bytes);
    if (!warmUp) exec.progress({ kind: 'step', step: s + 1, steps: spec.steps }, { step: s + 1, bytes });
  }
  const heldBytes = measurement.counted();
  const memory = measurement.finish(atRestBytes, heldBytes);
  // Without a warm-up run (WebAssembly) the first of several steps is the warm one: it is not timed.
  const timed = !warmUp && exec.backend === 'wasm' && stepMs.length > 1 ? stepMs.slice(1) : stepMs;
  const timedSteps = spec.loop?.retain || warmUp ? 0 : (spec.timedSteps ?? 0);
  for (let s = timed.length; s < timedSteps; s++) {
    exec.progress({ kind: 'timing', step: s + 1, steps: timedSteps });
    const stepStart = exec.now();
    for (const [, tensor] of Object.entries(outcome.results)) tensor.dispose();
    outcome = await step(exec, spec, open, examples, zeros, measurement);
    timed.push(exec.now() - stepStart);
  }
  for (const tensor of retained) tensor.dispose();

  const stepTimes = summariseStepTimes(timed);
  const gradients = await gradientsOf(exec, model, outcome.results);
  for (const tensor of Object.values(outcome.results)) tensor.dispose();
  disposeAll([...examples, zeros]);
  open.placement.dispose();
  for (const session of open.sessions) await session.release();
  return {
    backend: exec.backend,
    adapter: exec.store.adapter,
    memory,
    stepBytes,
    stepMs: stepTimes.medianMs,
    stepTimes,
    transfer,
    loadMs: open.loadMs,
    loss: outcome.loss,
    gradients,
  };
}
