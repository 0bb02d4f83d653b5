import type { MemoryKind } from '../../../lab/measure/measured-memory';
import type { FailureKind } from '../../../lab/results/classify-failure';
import type { GapCause } from '../../../lab/runtime-model/runtime-gap';
import { SETTING_ERROR_WORDS, type LabField } from '../../../lab/experiments/settings';
import { BACKEND_WORDS } from '../../../lab/page/choose-backend';
import { SINGLE_EXPERIMENT_WORDS } from '../../../lab/experiments/single/words';
import { CLUSTER_EXPERIMENT_WORDS } from '../../../lab/experiments/cluster/words';
import { DISTILLATION_WORDS } from '../../../lab/experiments/distillation/words';
import type { DistillationJob } from '../../../lab/measure/distillation';
import type { RunStage } from '../../../lab/measure/run-stage';

/** The distillation's models as its progress line names them. */
const PROGRESS_MODELS: Record<DistillationJob, string> = {
  'teacher-fp32': 'Teacher (fp32)',
  'teacher-int8': 'Teacher (int8)',
  student: 'Student',
};

/** What a measuring worker is doing, in the progress line (after the side's name and a colon). */
function describeRunStage(stage: RunStage): string {
  switch (stage.kind) {
    case 'starting-runtime':
      return 'starting onnxruntime-web';
    case 'loading-model':
      return `loading ${stage.model}`;
    case 'loading-layers':
      return `loading layers ${stage.first}–${stage.last}`;
    case 'compiling-shaders':
      return `compiling shaders (one step at batch ${stage.batch})`;
    case 'warm-up':
      return `compiling shaders (${describeRunStage(stage.stage)})`;
    case 'step':
      return `step ${stage.step} of ${stage.steps}`;
    case 'timing':
      return `timing step ${stage.step} of ${stage.steps}`;
    case 'forward-loading':
      return `${PROGRESS_MODELS[stage.job]}: loading`;
    case 'forward-pass':
      return `${PROGRESS_MODELS[stage.job]}: forward pass${stage.compiling ? ' (compiling shaders)' : ''}`;
    case 'test-accuracy':
      return `${PROGRESS_MODELS[stage.job]}: test accuracy`;
    case 'training':
      return `Training the student ${stage.targets === 'soft' ? 'with soft targets' : 'on hard labels only'}: step ${stage.step} of ${stage.steps}`;
  }
}

/** How an agreement verdict reads its backend's usual range: measured ÷ predicted from `min` to `max`, "close" within `close` %. */
export interface RatioRange {
  readonly min: number;
  readonly max: number;
  readonly closePercent: number;
}

/**
 * What the lab's experiments say to the reader (src/components/lab), in English. The lab's own layer (src/lab) keeps
 * the English words of what it decides (settings' errors, the backend chosen, each experiment's names) and exports
 * their types; this catalogue hands them on, so a translated catalogue replaces them all in one place. Functions fill
 * in what only a run knows.
 */
export const LAB_EN = {
  /** The frame every experiment shares: Run, status, failures, the link to the method page. */
  frame: {
    ariaLabel: (title: string): string => `Experiment: ${title}`,
    run: 'Run',
    running: 'Running…',
    runAgain: 'Run again',
    tryAgain: 'Try again',
    /** The runtime's size as `loadRuntime` picks it: both, since the build is chosen only on Run. */
    idle: (idleText: string, jspiMb: number, asyncifyMb: number): string =>
      `Press Run to download onnxruntime-web (${jspiMb} MB in browsers with WebAssembly JSPI such as Chrome and Edge, ${asyncifyMb} MB in others, once) and ${idleText}`,
    /** Shown before Run while the island asks the browser for a WebGPU adapter (no download). */
    checking: 'Checking what this browser can run…',
    /** Shown before Run when the experiment will fall back to WebAssembly. */
    willRunOnWasm: (cause: string): string => `${cause}, so this experiment will run on the CPU through WebAssembly.`,
    needsWebGpuTitle: 'Needs WebGPU.',
    /** Why an experiment that needs WebGPU cannot run here; nothing ran. */
    needsWebGpu: (why: string, cause: string): string => `${why} (${cause}.)`,
    startingRun: 'Starting…',
    downloading: (percent: number, total: string): string => `Downloading onnxruntime-web: ${percent}% of ${total}`,
    downloadingBytes: (loaded: string): string => `Downloading onnxruntime-web: ${loaded}`,
    /** A side's progress: who runs (sides joined by `then`), and what its worker does (`stage`). */
    progress: (who: string, stage: string): string => `${who}: ${stage}…`,
    /** The worker's stage, sent as data (src/lab's `RunStage`). */
    stage: describeRunStage,
    /** Between the sides one worker runs in turn, in the progress line. */
    then: ', then ',
    /** The one link from every experiment to the page that explains its columns, rules and words. */
    methodLink: 'How the lab measures',
    /** After what WebAssembly will and will not show, before Run: the page's section on it. */
    wasmLink: 'What WebAssembly can show',
    /** The heading of each failure a reader can learn from. */
    failureTitles: {
      'out-of-memory': 'You just hit OOM in your browser',
      'device-lost': 'The GPU device was lost',
      limits: 'This model is larger than your GPU allows',
      unsupported: 'Your browser cannot run this variant',
      error: 'The experiment failed',
      'needs-webgpu': 'Needs WebGPU',
    } satisfies Record<FailureKind, string>,
    /**
     * A failure's explanation, then the error as the browser or the runtime raised it: kept verbatim (it is what a
     * search or a bug report needs), so only the words around it are the page's.
     */
    failure: (why: string, detail: string): string => `${why} (${detail})`,
    /** What each failure means and what to try. */
    failureWhy: {
      'out-of-memory':
        'The browser could not allocate the buffers this step needs — the same thing CUDA reports as "out of memory". Try a smaller batch or width, or the technique this lesson teaches.',
      'device-lost':
        'The browser reset the GPU (often because a step ran too long or used too much memory). Reload the page and try smaller sizes.',
      limits:
        'One buffer would exceed a WebGPU limit of this device (maxBufferSize or maxStorageBufferBindingSize). Try a smaller batch or width.',
      unsupported: 'A feature this run needs is missing here.',
      error: 'Something unexpected went wrong while running the model.',
      'needs-webgpu': 'This experiment measures GPU buffers, which only WebGPU has.',
    } satisfies Record<FailureKind, string>,
  },
  /** The settings form: each field's label, and its errors (words of src/lab, typed there). */
  controls: {
    labels: {
      hidden: 'Width',
      layers: 'Layers',
      batch: 'Batch',
      microBatches: 'Micro-batches',
      devices: 'Virtual GPUs',
    } satisfies Record<LabField, string>,
    errors: SETTING_ERROR_WORDS,
    /** Where the sizes start lower on a software adapter. */
    softwareNote: (software: string, gpu: string): string =>
      `This browser runs WebGPU on a software adapter, which does every GPU kernel on the CPU, so the sizes start at ${software} (on a GPU: ${gpu}).`,
    /** The model's size in words, e.g. "width 128, 4 layers, batch 256". */
    sizes: (hidden: number, layers: number, batch: number): string => `width ${hidden}, ${layers} layers, batch ${batch}`,
  },
  /** Which backend runs and why (words of src/lab, typed there). */
  backend: BACKEND_WORDS,
  /** A before/after experiment (SingleExperiment.tsx). */
  single: {
    /** Each experiment's names and caveats (words of src/lab, typed there). */
    experiments: SINGLE_EXPERIMENT_WORDS,
    title: (before: string, after: string): string => `${before} vs ${after}`,
    idleText: 'measure both variants in your browser.',
    caption: 'Measured peak of each variant, and two predictions of it',
    note: (memoryLabel: string): string =>
      `Measured: ${memoryLabel}; "weights at rest" is what was held once the weights were placed and the sessions created, before the first step — everything above it is gradients, activations and temporaries. This runtime: a model of what onnxruntime-web 1.30 and the lab hold on WebGPU for these exact graphs, from the graphs' shapes alone. PyTorch on CUDA: the memory engine's peak for the same model, what PyTorch would hold at its busiest moment (weights, gradients, activations; no CUDA context). Each ratio is measured ÷ that prediction.`,
    notModelled: 'not modelled yet',
    noteUnmeasurable:
      ' The second row has no measured ÷ predicted: its prediction is for a run this backend cannot show (see below).',
    // Step time right after the peak: on a phone the columns after the third scroll out of view.
    columns: [
      'Variant',
      'Measured peak',
      'Step time, median (range)',
      'of which weights at rest',
      'This runtime',
      'PyTorch on CUDA',
      'Loss',
    ],
    /** A side's batch in its row heading: split into micro-batches, or whole. */
    microBatches: (count: number, size: number): string => ` (${count} × ${size})`,
    batch: (size: number): string => ` (batch ${size})`,
    heapLabel: 'WebAssembly heap growth (coarse high-water mark)',
    buffersLabel: 'GPU buffers, peak (reserved by onnxruntime-web)',
    chartHeap: 'WebAssembly heap growth',
    chartBuffers: 'GPU buffers held',
    /** What the live chart counts while a loop runs. */
    liveBuffers: 'live GPU buffers',
    stepAxis: 'training step',
    timeAxis: 'time in the run (s)',
    saving: (percent: number): string => `Measured saving: ${percent}%. `,
    noSaving: 'No measured saving at these sizes. ',
    /** Where out-of-place accumulation raised the peak, as onnxruntime-web's second gradient set does at width 256. */
    accumulationRaised: (measured: string, runtime: string, secondSet: string, pytorch: string): string =>
      `Here accumulation raised the peak (measured ${measured}; this runtime predicts ${runtime}): onnxruntime-web adds each micro-batch's gradients out of place, and the second gradient set (${secondSet}) costs more than the smaller micro-batch saves in activations. PyTorch adds .grad in place and would go ${pytorch}. `,
    noPyTorchSaving: (pytorch: string): string =>
      `PyTorch on CUDA predicts no saving at these sizes (${pytorch}): its busiest moment is one this technique does not shrink. `,
    gapHeading: (label: string): string => `${label}, this runtime against PyTorch on CUDA:`,
    /** Where a 16-bit experiment ran on WebAssembly: nothing computed in 16 bits. */
    emulatedLabel: (label: string): string => `${label} model, computed in fp32`,
    emulatedGradients: (difference: string): string =>
      `On WebAssembly the 16-bit model computed in fp32, so there is no 16-bit rounding to see (largest relative gradient difference ${difference}).`,
    gradients: (verdict: string, difference: string): string => `${verdict} (largest relative difference ${difference}).`,
    adapter: (name: string): string => ` Adapter: ${name}.`,
  },
  /** An experiment on virtual GPUs (ClusterExperiment.tsx, DeviceBars.tsx, PipelineSchedule.tsx). */
  cluster: {
    /** Each experiment's side names and why none runs without WebGPU (words of src/lab, typed there). */
    experiments: CLUSTER_EXPERIMENT_WORDS,
    caption: 'Measured and predicted peak of each device',
    note: (memory: string, restExtra: string, predictedExtra: string): string =>
      `Measured per device: ${memory}, at its peak; "at rest" once weights${restExtra} were placed; "between steps" after the last step. This runtime: a model of what onnxruntime-web 1.30 and the lab hold on WebGPU, each device's own loop replayed over these exact graphs from their shapes alone. PyTorch on CUDA: the memory engine's per-GPU peak for the same model${predictedExtra}, without a CUDA context. Measured ÷ PyTorch compares each side's busiest device with it. Step time: each device's median and range over its timed steps; a side steps as fast as its slowest device, which the others wait for at every exchange.`,
    /** What "at rest" also holds in the ZeRO experiment. */
    restExtraAdam: ' and Adam moments',
    /** Which device the pipeline's prediction is for. */
    predictedExtraPipeline: ' (the first stage, the larger one)',
    heapLabel: 'WebAssembly heap growth (coarse high-water mark)',
    buffersLabel: 'GPU storage buffers reserved by onnxruntime-web',
    // Step time right after the peak: on a phone the columns after the fourth scroll out of view.
    columns: [
      'Side',
      'Device',
      'Peak',
      'Step time, median (range)',
      'At rest',
      'Between steps',
      'This runtime',
      'PyTorch on CUDA',
      'Measured ÷ PyTorch',
    ],
    /** Without WebGPU the model of onnxruntime-web's buffers (runtime-model/) does not apply. */
    notModelled: 'not modelled yet',
    gapHeading: (label: string, rank: number): string => `${label}, GPU ${rank}, this runtime against PyTorch on CUDA:`,
    title: (before: string, after: string): string => `${before} vs ${after}`,
    idle: 'start one virtual GPU per device, each a WebGPU device in a worker of its own.',
    device: (rank: number): string => `GPU ${rank}`,
    deviceOfSide: (label: string, rank: number): string => `${label}, GPU ${rank}`,
    saving: (after: string, percent: string, before: string): string =>
      `The busiest device of "${after}" peaked ${percent}% below "${before}". `,
    noSaving: 'No per-device saving at these sizes. ',
    /** What the sides must compute alike. */
    compares: { gradients: 'gradients', weights: 'weights' },
    same: (compares: string, difference: string): string =>
      `Both sides computed the same ${compares} (largest relative difference ${difference}).`,
    differ: (compares: string, difference: string): string =>
      `The ${compares} differ between the sides (largest relative difference ${difference}).`,
    adapter: (name: string): string => ` Adapter: ${name}.`,
    bubble: (measured: string, ideal: string, stages: number, microBatches: number): string =>
      `Measured bubble: ${measured}% of the device time idle; with equal stage times the 1F1B schedule idles ${ideal}% ((p − 1)/(m + p − 1) with p = ${stages}, m = ${microBatches}).`,
    /** The per-device bar chart. */
    barsAxis: 'peak bytes per device (MiB); ticks: predicted',
    barsDescription: (sides: readonly string[]): string =>
      `Peak bytes per device, measured as bars and predicted as ticks, for ${sides.join(' and ')}`,
    /** The measured pipeline schedule. */
    scheduleAxis: 'time in the step (s)',
    scheduleKinds: { forward: 'forward', backward: 'backward' },
    scheduleDescription:
      'Pipeline schedule: forward and backward of each micro-batch on each device over time; gaps are the bubble',
  },
  /** The distillation experiment (DistillationExperiment.tsx). */
  distillation: {
    /** The models' names and what WebAssembly cannot show (words of src/lab, typed there). */
    models: DISTILLATION_WORDS,
    title: 'teacher vs distilled student vs int8 teacher',
    idleText:
      'measure the teacher (fp32 and int8) and the student, and train the student twice: with soft targets and on hard labels only.',
    caption: 'Memory, time and accuracy of each model',
    note: (batch: number, memory: string): string =>
      `One forward pass of ${batch} test examples. Measured: ${memory}, from before the model was loaded; "at rest" is what was held once the model was loaded, before it ran. This runtime: a model of what onnxruntime-web 1.30 holds on WebGPU for these exact graphs, from the graphs' shapes alone, with measured ÷ it. PyTorch on CUDA: the memory engine in inference mode for the same model (weights at their storage width plus the forward working set; no CUDA context), with measured ÷ it: the peak for the fp32 models; for the int8 teacher, its weights at rest against the engine's int8 weights line (its peak is explained below). Accuracy: all 2,048 held-out test examples.`,
    heapLabel: 'WebAssembly heap growth (coarse high-water mark)',
    buffersLabel: 'GPU buffers, peak (reserved by onnxruntime-web)',
    columns: [
      'Model',
      'Parameters',
      'Measured peak',
      'at rest',
      'This runtime',
      'PyTorch on CUDA',
      'Forward pass',
      'Test accuracy',
    ],
    /** A parameter count with the locale's grouping. */
    parameters: (count: number): string => count.toLocaleString('en-US'),
    milliseconds: (ms: number): string => `${ms.toFixed(1)} ms`,
    percent: (share: number): string => `${(share * 100).toFixed(1)}%`,
    int8Compared: "the int8 teacher's weights at rest",
    atRestRatio: (ratio: string): string => `${ratio} at rest`,
    notModelled: 'not modelled off WebGPU',
    gapHeading: (label: string): string => `${label}, this runtime against PyTorch on CUDA:`,
    /** Why the int8 teacher holds more while it runs than at rest. */
    int8Copies: (int8AtRest: string, fp32AtRest: string, copies: string): string =>
      `At rest the int8 teacher holds ${int8AtRest} against ${fp32AtRest} in fp32. While it runs it takes ${copies} more than that, well above the prediction: onnxruntime-web executes each DequantizeLinear as a step of its own that writes an fp32 copy of the weight matrix for the MatMul to read, and within one run it reuses those buffers only in part. The engine assumes a kernel that reads the int8 weights directly, as LLM.int8() and the 4-bit GPTQ and AWQ kernels do.`,
    /**
     * The accuracies, as parts of one sentence: `distilled` and `hardOnly` are the student's two runs, which the
     * island passes already set in bold (the comparison the experiment is about).
     */
    accuracies: <Emphasis>(
      distilled: Emphasis,
      alpha: number,
      hardOnly: Emphasis,
      seconds: string,
      teacher: string,
      int8: string,
    ): (string | Emphasis)[] => [
      'The student, trained here twice from the same start for the same number of steps on the same 256 labelled examples, reaches ',
      distilled,
      ` with the teacher's soft targets (α = ${alpha}) and `,
      hardOnly,
      ` on the hard labels alone (training took ${seconds} s for both). The teacher, which learnt from 8,192 examples, scores ${teacher}; stored in int8 it scores ${int8}.`,
    ],
    /** What the progress line calls the worker: all three models in one, or one model alone. */
    progressSides: {
      distillation: 'Distillation',
      'teacher-fp32': 'teacher-fp32',
      'teacher-int8': 'teacher-int8',
      student: 'student',
    } satisfies Record<'distillation' | DistillationJob, string>,
    shares: (student: string, int8: string): string =>
      `Measured: the student's forward pass holds ${student} of the teacher's; the int8 teacher's holds ${int8}. `,
    adapter: (name: string): string => ` Adapter: ${name}.`,
  },
  /** What moving weights costs (TransferTable.tsx, under the offload experiment). */
  transfer: {
    caption: 'Host↔GPU traffic of the timed step',
    note: 'Upload time is what the worker spent creating buffers and handing them the weights; the copies then run on the GPU’s queue ahead of the kernels that read them, so their full cost shows in the step time. Resident weights were uploaded once, before the first step.',
    columns: ['Variant', 'Weights uploaded per step', 'Upload time', 'Gradients read back per step', 'Step time, median (range)'],
    milliseconds: (ms: number): string => `${ms.toFixed(1)} ms`,
  },
  /** A memory chart over a run (MemoryTimeline.tsx). */
  timeline: {
    yAxis: (unit: string): string => `${unit} (MiB)`,
    /** The chart as one image to assistive technology. */
    description: (unit: string, x: string, series: readonly string[]): string =>
      `${unit} against ${x} for ${series.join(' and ')}`,
  },
  /** The sentences under a results table for sides without a model of this runtime (agreement-words.ts). */
  agreement: {
    /** One side with its ratio: "fp32 (1.46×)". */
    side: (label: string, ratio: string): string => `${label} (${ratio})`,
    /** "a", "a and b", "a, b and c". */
    list: (items: readonly string[]): string =>
      items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`,
    /** The causes of a WebGPU reading above the prediction, largest first; `outOfPlace` lists the sides adding gradients out of place. */
    webGpuExtras: (outOfPlace: readonly string[], list: string): string =>
      `onnxruntime-web reuses a freed buffer only after its next flush (every 16 kernels, at a read-back and at the end of a run), so what a step frees stays allocated beside what it allocates until then.${
        outOfPlace.length > 0
          ? ` ${list} ${outOfPlace.length > 1 ? 'add' : 'adds'} gradients out of place (acc_out = acc_in + g), so two full gradient sets exist at once, where PyTorch's .grad += adds in place.`
          : ''
      } Last and smallest, it rounds each buffer up to a size class.`,
    /** What each verdict says of `sides`; `extras` is `webGpuExtras`'s sentence. */
    verdicts: {
      close: (sides: string, kind: MemoryKind, range: RatioRange, extras: string): string =>
        `Measured is within ${range.closePercent}% of the prediction for ${sides}. That is not agreement: the prediction is PyTorch's on CUDA, and ${
          kind === 'wasm-heap'
            ? 'the WebAssembly heap grows in coarse steps and holds the runtime’s own arena.'
            : `this runtime's extras can offset lines it does not hold. ${extras}`
        }`,
      above: (sides: string, kind: MemoryKind, range: RatioRange, extras: string): string =>
        kind === 'wasm-heap'
          ? `Measured is above the prediction for ${sides}: the WebAssembly heap only grows, in steps of about a fifth of its size, and holds the runtime's own arena. That is the usual overhead of this backend (up to ${range.max}×), not agreement.`
          : `Measured is above the prediction for ${sides}, within this backend's usual range (up to ${range.max}×), not agreement. ${extras}`,
      below: (sides: string, _kind: MemoryKind, range: RatioRange): string =>
        `Measured is below the prediction for ${sides}: the runtime reused buffers that the formula counts separately, or does not hold lines it counts. That is within this backend's usual range (down to ${range.min}×), not agreement.`,
      outside: (sides: string, _kind: MemoryKind, range: RatioRange): string =>
        `Measured and predicted differ for ${sides} by more than this backend usually shows (${range.min}–${range.max}×); How the lab measures, linked below, explains where such gaps come from.`,
    },
  },
  /** The words beside "this runtime" (runtime-words.ts). */
  runtime: {
    /** Each cause of the gap, as a line under the table. */
    gapItems: {
      'second-gradient-set':
        'a second gradient set: the lab’s graphs add gradients out of place (acc_out = acc_in + g; the pipeline’s accumulate graph, sum = a + b), so both sets exist at once, where PyTorch’s .grad += adds in place',
      'size-classes':
        'size classes: each runtime buffer is rounded up to one of its sizes, and freed buffers stay cached until the session is released',
      'reuse-after-flush': 'freed buffers reused only after a flush (every 16 kernels, at a read-back and at the end of a run)',
      'examples-and-labels':
        'the lab’s own exact-size buffers: every micro-batch’s examples and labels, placed before the first step',
      rest: 'not itemised: how the lab’s graphs differ from PyTorch’s step (what one graph keeps to its end, gradients read back to the host)',
    } satisfies Record<GapCause, string>,
    /** One line of the gap: "+0.27 MB: a second gradient set: …". */
    gapLine: (bytes: string, cause: string): string => `${bytes}: ${cause}`,
    difference: (bytes: string): string => `${bytes} over PyTorch on CUDA`,
    agrees: (label: string, ratio: string, difference: string): string =>
      `${label}: measured agrees with this runtime (${ratio}); its ${difference} is named below.`,
    close: (label: string, ratio: string, difference: string, percent: number): string =>
      `${label}: measured is within ${percent}% of this runtime (${ratio}), but of its ${difference} the named items leave more than ${percent}% of PyTorch’s peak unexplained, so it does not count as agreement.`,
    apart: (label: string, ratio: string, percent: number): string =>
      `${label}: measured is ${ratio} of this runtime, more than ${percent}% off: at these sizes the model misses something the run held.`,
    unchecked: (label: string, ratio: string, difference: string, unchecked: string): string =>
      `${label}: this runtime is ${unchecked} (no recording with 16-bit shaders has tested its rules), so measured at ${ratio} of it is not called agreement; its ${difference} is named below.`,
    /** How an unchecked "this runtime" figure is labelled, in its cell and its sentence. */
    uncheckedWords: 'predicted, not yet checked against a trace',
  },
  /** Step times (step-time-words.ts). */
  stepTime: {
    seconds: (s: number): string => `${s.toFixed(2)} s`,
    range: (median: string, min: string, max: string): string => `${median} (${min}–${max})`,
    ratio: (ratio: string): string => ` (${ratio}×)`,
    withinNoise: ' (within the noise)',
    differ: (after: string, ratio: string, before: string, steps: number): string =>
      `A ${after} step took ${ratio}× a ${before} step; their ranges over ${steps} timed steps do not overlap. `,
    same: (steps: number): string =>
      `The two step times overlap over ${steps} timed steps: at these sizes this browser shows no time difference between them. `,
  },
};

/** The shape of every language's lab words. */
export type LabMessages = typeof LAB_EN;
