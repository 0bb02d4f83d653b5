/**
 * The diffusion pipelines a reader can pick by name (`diffusion --model ID`, the page's picker), each read from its
 * committed diffusers `transformer/config.json` (model-configs/diffusers/, sources in SOURCES.md there) by
 * `readDiffusersConfig`, so no transformer shape is typed by hand.
 */
import { readDiffusersConfig, type DitShape } from './diffusion-config.ts';
import flux1Dev from './model-configs/diffusers/flux.1-dev.json' with { type: 'json' };
import sd3Medium from './model-configs/diffusers/sd3-medium.json' with { type: 'json' };
import sd35Large from './model-configs/diffusers/sd3.5-large.json' with { type: 'json' };
import sd35Medium from './model-configs/diffusers/sd3.5-medium.json' with { type: 'json' };
import wan21I2v14b720p from './model-configs/diffusers/wan2.1-i2v-14b-720p.json' with { type: 'json' };
import wan21T2v13b from './model-configs/diffusers/wan2.1-t2v-1.3b.json' with { type: 'json' };
import wan21T2v14b from './model-configs/diffusers/wan2.1-t2v-14b.json' with { type: 'json' };

/** A pipeline preset: its id (the config file's name), label, Hub repository and transformer shape. */
export interface DiffusionPreset {
  readonly id: string;
  readonly label: string;
  readonly checkpoint: string;
  readonly className: string;
  readonly shape: DitShape;
}

/** Id, label, Hub repository and parsed config of each committed transformer config. */
const DIFFUSION_CONFIG_FILES: readonly (readonly [id: string, label: string, checkpoint: string, json: unknown])[] = [
  ['wan2.1-t2v-14b', 'Wan 2.1 T2V 14B (text-to-video)', 'Wan-AI/Wan2.1-T2V-14B-Diffusers', wan21T2v14b],
  ['wan2.1-t2v-1.3b', 'Wan 2.1 T2V 1.3B (text-to-video)', 'Wan-AI/Wan2.1-T2V-1.3B-Diffusers', wan21T2v13b],
  ['flux.1-dev', 'FLUX.1-dev (text-to-image)', 'black-forest-labs/FLUX.1-dev', flux1Dev],
  ['wan2.1-i2v-14b-720p', 'Wan 2.1 I2V 14B 720P (image-to-video)', 'Wan-AI/Wan2.1-I2V-14B-720P-Diffusers', wan21I2v14b720p],
  ['sd3-medium', 'Stable Diffusion 3 Medium (text-to-image)', 'stabilityai/stable-diffusion-3-medium-diffusers', sd3Medium],
  ['sd3.5-medium', 'Stable Diffusion 3.5 Medium (text-to-image)', 'stabilityai/stable-diffusion-3.5-medium', sd35Medium],
  ['sd3.5-large', 'Stable Diffusion 3.5 Large (text-to-image)', 'stabilityai/stable-diffusion-3.5-large', sd35Large],
];

/** Every pipeline preset, in the order the picker lists them; a file that does not read is a build error. */
export const DIFFUSION_PRESETS: readonly DiffusionPreset[] = DIFFUSION_CONFIG_FILES.map(([id, label, checkpoint, json]) => {
  const reading = readDiffusersConfig(json);
  if (!reading.ok) throw new Error(`model-configs/diffusers/${id}.json: ${reading.errors.map((e) => e.message).join('; ')}`);
  return { id, label, checkpoint, className: reading.className, shape: reading.shape };
});

/** The preset with this id, or undefined. */
export function getDiffusionPreset(id: string): DiffusionPreset | undefined {
  return DIFFUSION_PRESETS.find((preset) => preset.id === id);
}
