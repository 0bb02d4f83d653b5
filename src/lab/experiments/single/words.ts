/**
 * What the page says of each single experiment, in English: its sides' names, the gradient check's verdicts, and why a
 * backend cannot show or run it. The definitions (experiments.ts) read these words; a translated page reads its own,
 * typed by `SingleExperimentWords`, so the lab itself never depends on the site's languages.
 */
import type { SingleExperimentId } from './experiments';

/** The words of one experiment. */
export interface SingleExperimentText {
  /** The side without the technique. */
  readonly before: string;
  /** The side with it. */
  readonly after: string;
  /** The gradient check passed / failed. */
  readonly passLabel: string;
  readonly failLabel: string;
  /** Why WebAssembly cannot show the saving (the run still goes), or null when it can. */
  readonly wasmUnmeasurable: string | null;
  /** What WebAssembly shows of a saving it can show, said before Run; null when nothing needs saying. */
  readonly wasmShows: string | null;
  /** Why the experiment cannot run without WebGPU; null when it falls back to WebAssembly. */
  readonly needsWebGpu: string | null;
}

/** Every single experiment's words, by id. */
export type SingleExperimentWords = Readonly<Record<SingleExperimentId, SingleExperimentText>>;

export const SINGLE_EXPERIMENT_WORDS: SingleExperimentWords = {
  'mixed-precision': {
    before: 'fp32',
    after: '16-bit (AMP-style)',
    passLabel: 'Gradients drift only by 16-bit rounding',
    failLabel: 'Gradients drifted more than 5%',
    wasmUnmeasurable:
      'On WebAssembly, onnxruntime-web runs the 16-bit model with fp32 CPU kernels (it casts the 16-bit tensors back), so both variants hold the same bytes and compute the same numbers. Only a GPU with 16-bit shaders (WebGPU shader-f16) shows the saving the prediction describes.',
    wasmShows: null,
    needsWebGpu: null,
  },
  'gradient-accumulation': {
    before: 'one batch',
    after: 'micro-batches',
    passLabel: 'Gradients equal (float32 rounding only)',
    failLabel: 'Gradients differ',
    wasmUnmeasurable: null,
    wasmShows:
      'On WebAssembly the figure is the heap’s high-water mark, which only grows, in steps of about a fifth of its size, and includes the runtime’s own arena: the saving shows, but in whole steps. WebGPU counts every buffer.',
    needsWebGpu: null,
  },
  'gradient-checkpointing': {
    before: 'keep activations',
    after: 'recompute',
    passLabel: 'Gradients identical',
    failLabel: 'Gradients differ',
    wasmUnmeasurable:
      'On WebAssembly the step runs as one graph, and onnxruntime-web’s CPU memory planner kept the heap at the same high-water mark with and without recomputation in our measurements (up to width 512, 16 layers, batch 2048). The recompute variant still shows its cost in step time; WebGPU shows the memory saving.',
    wasmShows: null,
    needsWebGpu: null,
  },
  leak: {
    before: 'leaky loop',
    after: 'fixed loop',
    passLabel: 'Both loops compute identical gradients',
    failLabel: 'The loops computed different gradients',
    wasmUnmeasurable: null,
    wasmShows: null,
    needsWebGpu:
      'This experiment needs WebGPU: what a leaky loop keeps are GPU tensors, and without WebGPU they would live in ordinary JavaScript memory, which a page cannot measure. Open the page in a browser with WebGPU (Chrome, Edge, or Safari 26 and newer) to see the staircase.',
  },
  offload: {
    before: 'all weights resident',
    after: 'weights streamed',
    passLabel: 'Gradients identical',
    failLabel: 'Gradients differ',
    wasmUnmeasurable: null,
    wasmShows: null,
    needsWebGpu:
      'This experiment needs WebGPU: offload moves weights between host memory and GPU memory, and without WebGPU onnxruntime-web runs on the CPU, where the weights never leave host memory and there is no GPU memory to save. Open the page in a browser with WebGPU (Chrome, Edge, or Safari 26 and newer) to watch the weights stream.',
  },
};
