/**
 * What every experiment does on Run before its workers start: pick the backend (refusing to
 * start where the experiment needs WebGPU and there is none), download and compile the runtime
 * (once per page), and resolve where the workers fetch the models from.
 */
import type { Backend } from '../measure/executor';
import { backendReasonWords, chooseBackend, type BackendChoice } from './choose-backend';
import { LabRunError } from './lab-run-error';
import { MODELS_URL } from './manifest-loader';
import type { LabProgress } from './progress';
import { loadRuntime, type LabRuntime } from './runtime-loader';

/** What an experiment needs of the browser. */
export interface RunNeeds {
  /** 16-bit shaders (`shader-f16`) on WebGPU; without them the run falls back to WebAssembly. */
  readonly needsF16: boolean;
  /** Why the experiment cannot run without WebGPU; unset when it falls back to WebAssembly. */
  readonly needsWebGpu?: string | undefined;
}

/** The backend chosen, the compiled runtime, and where the models are served. */
export interface RunStart {
  readonly backend: Backend;
  /** Why this backend, as data the page words (`backendReasonWords`). */
  readonly backendChoice: BackendChoice;
  readonly runtime: LabRuntime;
  /** Absolute URL of the models folder: a worker resolves relative URLs against its own script. */
  readonly modelsUrl: string;
}

/** Chooses the backend and loads the runtime; throws `needs-webgpu` before any download where nothing can run. */
export async function startRun(
  { needsF16, needsWebGpu }: RunNeeds,
  onProgress: (progress: LabProgress) => void,
): Promise<RunStart> {
  const backendChoice = await chooseBackend({ needsF16 });
  const { backend } = backendChoice;
  if (backend === 'wasm' && needsWebGpu)
    throw new LabRunError('needs-webgpu', `${needsWebGpu} (${backendReasonWords(backendChoice)})`);
  const runtime = await loadRuntime((download) => onProgress({ phase: 'runtime', download }));
  return { backend, backendChoice, runtime, modelsUrl: new URL(MODELS_URL, location.href).href };
}
