import type { LabRunError } from '../../lab/page/lab-run-error';
import { RUNTIME_DOWNLOAD_MB } from '../../lab/page/runtime-loader';

/**
 * What the experiment frame says to the reader, in one place so that a translation (zh-CN)
 * replaces this module and nothing else. Functions fill in what only a run knows.
 */
export const FRAME_STRINGS = {
  run: 'Run',
  running: 'Running…',
  runAgain: 'Run again',
  tryAgain: 'Try again',
  /** The runtime's size as `loadRuntime` picks it: both, since the build is chosen only on Run. */
  idle: (idleText: string) =>
    `Press Run to download onnxruntime-web (${RUNTIME_DOWNLOAD_MB.jspi} MB in browsers with WebAssembly JSPI such as Chrome and Edge, ${RUNTIME_DOWNLOAD_MB.asyncify} MB in others, once) and ${idleText}`,
  /** Shown before Run while the island asks the browser for a WebGPU adapter (no download). */
  checking: 'Checking what this browser can run…',
  /** Shown before Run when the experiment will fall back to WebAssembly. */
  willRunOnWasm: (cause: string) => `${cause}, so this experiment will run on the CPU through WebAssembly.`,
  needsWebGpuTitle: 'Needs WebGPU.',
  /** Why an experiment that needs WebGPU cannot run here; nothing ran. */
  needsWebGpu: (why: string, cause: string) => `${why} (${cause}.)`,
  startingRun: 'Starting…',
  downloading: (percent: number, total: string) => `Downloading onnxruntime-web: ${percent}% of ${total}`,
  downloadingBytes: (loaded: string) => `Downloading onnxruntime-web: ${loaded}`,
  /** The one link from every experiment to the page that explains its columns, rules and words. */
  methodLink: 'How the lab measures',
  methodHref: '/lab/how-the-lab-measures/',
  /** After what WebAssembly will and will not show, before Run: the page's section on it. */
  wasmLink: 'What WebAssembly can show',
  wasmHref: '/lab/how-the-lab-measures/#webgpu-and-webassembly',
} as const;

/** The heading of each failure a reader can learn from. */
export const FAILURE_TITLES: Record<LabRunError['kind'], string> = {
  'out-of-memory': 'You just hit OOM in your browser',
  'device-lost': 'The GPU device was lost',
  limits: 'This model is larger than your GPU allows',
  unsupported: 'Your browser cannot run this variant',
  error: 'The experiment failed',
  'needs-webgpu': 'Needs WebGPU',
};

/** What each failure means and what to try. */
export const FAILURE_WHY: Record<LabRunError['kind'], string> = {
  'out-of-memory':
    'The browser could not allocate the buffers this step needs — the same thing CUDA reports as "out of memory". Try a smaller batch or width, or the technique this lesson teaches.',
  'device-lost':
    'The browser reset the GPU (often because a step ran too long or used too much memory). Reload the page and try smaller sizes.',
  limits:
    'One buffer would exceed a WebGPU limit of this device (maxBufferSize or maxStorageBufferBindingSize). Try a smaller batch or width.',
  unsupported: 'A feature this run needs is missing here.',
  error: 'Something unexpected went wrong while running the model.',
  'needs-webgpu': 'This experiment measures GPU buffers, which only WebGPU has.',
};
