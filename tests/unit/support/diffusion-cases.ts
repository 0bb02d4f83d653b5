/** The diffusion tests' shared cases: a preset's shape, the issue's walk-through, and an estimate that must succeed. */
import {
  estimateDiffusion,
  getDiffusionPreset,
  getGpuPreset,
  type DiffusionEstimate,
  type DiffusionOptions,
  type DitShape,
} from '../../../src/memory/index.ts';

/** A diffusion preset's transformer shape; throws on an unknown id. */
export function presetShape(id: string): DitShape {
  const preset = getDiffusionPreset(id);
  if (preset === undefined) throw new Error(`no preset ${id}`);
  return preset.shape;
}

/**
 * The walk-through of issue #27: Wan 2.1 T2V 14B at 1280×720, 81 frames, bf16, 50 steps, everything on the GPU,
 * guidance as two passes, on a 24 GB RTX 4090. Every option a figure depends on is set.
 */
export const WAN_14B_720P: DiffusionOptions = {
  shape: presetShape('wan2.1-t2v-14b'),
  width: 1280,
  height: 720,
  frames: 81,
  steps: 50,
  weights: 'bf16',
  offload: 'none',
  textEncoderOnCpu: false,
  vaeTiling: false,
  guidance: 'sequential',
  gpu: getGpuPreset('rtx-4090') ?? null,
};

/** The estimate for `options`; throws with the engine's messages when it refuses them. */
export function estimated(options: DiffusionOptions): DiffusionEstimate {
  const outcome = estimateDiffusion(options);
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => e.message).join('; '));
  return outcome.result;
}
