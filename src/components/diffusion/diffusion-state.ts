/**
 * What the image and video generation calculator shows, without the DOM: its settings as the `diffusion` command's
 * flags (so the URL query is a command line), the estimate and the changes that would make it fit, all from the same
 * engine functions the command runs. The island only renders this.
 */
import { commandLine } from '../../base/command-line';
import {
  diffusionRemedies,
  estimateDiffusion,
  flagArgs,
  formatDiffusionFlags,
  getDiffusionPreset,
  parseDiffusionFlags,
  ruleError,
  type DiffusionChange,
  type DiffusionEstimate,
  type DiffusionOptions,
  type DiffusionPreset,
  type DiffusionRemedy,
  type FieldError,
} from '../../memory/index';

/** The calculator's settings: flag name → value, `'true'` for a switch that is on. */
export type DiffusionSettings = Readonly<Record<string, string>>;

/**
 * The page's first settings: the worked case, a video model that needs about 48 GB on a 24 GB card (Wan 2.1
 * 14B at 1280×720, 81 frames, bf16, on an RTX 4090).
 */
export const DIFFUSION_DEFAULTS: DiffusionSettings = {
  model: 'wan2.1-t2v-14b',
  resolution: '1280x720',
  frames: '81',
  weights: 'bf16',
  offload: 'none',
  gpu: 'rtx-4090',
};

/** Every flag the calculator reads from a URL query and writes back: the `diffusion` command's, less `--config`. */
export const DIFFUSION_QUERY_KEYS = [
  'model',
  'resolution',
  'frames',
  'steps',
  'weights',
  'offload',
  'text-encoder-cpu',
  'vae-tiling',
  'guidance',
  'gpu',
  'headroom',
] as const;

/** The settings a URL query gives: the defaults, overridden by the flags the calculator owns. */
export function diffusionFromQuery(search: string): DiffusionSettings {
  const query = new URLSearchParams(search);
  const settings: Record<string, string> = { ...DIFFUSION_DEFAULTS };
  for (const key of DIFFUSION_QUERY_KEYS) {
    const value = query.get(key);
    if (value !== null) settings[key] = value;
  }
  return settings;
}

/** The settings with one flag set, or removed when `value` is undefined or empty. */
export function withSetting(settings: DiffusionSettings, flag: string, value: string | undefined): DiffusionSettings {
  const next: Record<string, string> = { ...settings };
  if (value === undefined || value === '') delete next[flag];
  else next[flag] = value;
  return next;
}

/**
 * The settings with another pipeline picked: its output size, frames, steps and guidance go back to the pipeline's
 * own, since a video's frames or a resolution need not suit another model.
 */
export function pickPipeline(settings: DiffusionSettings, model: string): DiffusionSettings {
  const next: Record<string, string> = { ...settings, model };
  for (const flag of ['resolution', 'frames', 'steps', 'guidance']) delete next[flag];
  return next;
}

/** The settings with a remedy's changes made. */
export function withChanges(settings: DiffusionSettings, changes: readonly DiffusionChange[]): DiffusionSettings {
  return changes.reduce((next, c) => withSetting(next, c.flag, c.value === true ? 'true' : c.value), settings);
}

/** An estimate with what it needs around it on the page. */
export interface DiffusionView {
  readonly preset: DiffusionPreset;
  readonly options: DiffusionOptions;
  readonly result: DiffusionEstimate;
  readonly remedies: readonly DiffusionRemedy[];
  /** The flags that reproduce it: the URL query, and the command line's arguments. */
  readonly flags: Readonly<Record<string, string>>;
  readonly command: string;
}

/** The calculator's answer for some settings, or the field errors that stop it. */
export type DiffusionComputed =
  { readonly ok: true; readonly view: DiffusionView } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Read the settings as the `diffusion` command reads its flags, and estimate them. */
export function computeDiffusion(settings: DiffusionSettings): DiffusionComputed {
  const id = settings['model'] ?? '';
  const preset = getDiffusionPreset(id);
  if (preset === undefined) return { ok: false, errors: [ruleError('model', { code: 'unknownPipeline', params: { id } })] };
  const parsed = parseDiffusionFlags(settings, preset.shape);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const outcome = estimateDiffusion(parsed.options);
  if (!outcome.ok) return { ok: false, errors: outcome.errors };
  const flags = formatDiffusionFlags(preset.id, parsed.options);
  return {
    ok: true,
    view: {
      preset,
      options: parsed.options,
      result: outcome.result,
      remedies: diffusionRemedies(parsed.options),
      flags,
      command: commandLine('diffusion', flagArgs(flags)),
    },
  };
}
