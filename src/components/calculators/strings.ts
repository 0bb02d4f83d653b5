import { MEMORY_PART_LABELS } from '../memory-parts';

/** Every user-visible string of the calculators, in one place so a translation is a content change. */
export const STRINGS = {
  groups: { model: 'Model', workload: 'Workload', technique: 'Technique', hardware: 'Hardware' },
  model: 'Model',
  custom: 'Custom…',
  /** The computed model's name: the preset, or a custom shape and the preset it is based on. */
  modelName: (preset: string | null, custom: boolean) =>
    preset === null ? 'Custom shape' : custom ? `Custom shape from ${preset}` : preset,
  /** A parameter count for people: "8.19 B", "124.4 M". */
  parameterCount: (count: number) => (count >= 1e9 ? `${(count / 1e9).toFixed(2)} B` : `${(count / 1e6).toFixed(1)} M`),
  modelParams: (name: string, count: string, active: string | null, family: string | null) =>
    `${name} · ${count} parameters${active === null ? '' : `, ${active} active per token`}${family === null ? '' : ` (${family})`}`,
  gpu: 'GPU',
  noGpu: '(no GPU: skip the fit check)',
  defaultOption: (value: string | undefined) => (value === undefined ? '(default)' : `(default: ${value})`),
  defaultPlaceholder: (value: string | undefined) => (value === undefined ? 'default' : `default: ${value}`),
  ariaLabel: 'Memory calculator',
  fits: (gpu: string, spare: string) => `Fits on the ${gpu}, with ${spare} to spare after the free margin`,
  overBy: (gpu: string, over: string) => `Does not fit on the ${gpu}: ${over} over, counting the free margin`,
  pickGpu: 'Pick a GPU to check the fit',
  peakAt: (peak: string, moment: string) => `Peak ${peak} per GPU, at ${moment}`,
  dominant: (category: string, share: number) => `${category} ${share}% of it`,
  sumOfParts: (sum: string) => `Sum of parts ${sum}:`,
  sumWhy: 'the peak is lower because gradients, activations and the optimizer’s temporaries are never all alive at once.',
  sumSame: 'here every part is alive at the peak, so the peak is the sum.',
  staleNote: 'Fix the highlighted field: the result below is for the last valid settings.',
  changedDefaults: 'Set here, unlike the engine’s defaults:',
  scenario: 'Scenario',
  peakColumn: 'Peak per GPU',
  hostColumn: 'Host RAM per GPU',
  fitsColumn: 'Fits?',
  yes: 'yes',
  shortBy: (short: string) => `no, ${short} short`,
  saves: (percent: number) => `Saves ${percent}% per GPU`,
  needsMore: (percent: number) => `Needs ${percent}% more per GPU`,
  noChange: 'No change per GPU',
  stepTime: (seconds: string, assumptions: string) => `; estimated step time ${seconds} (an estimate: ${assumptions})`,
  headroom: (percent: number, bytes: string) =>
    `The dashed line keeps ${percent}% of the GPU free (${bytes}) for fragmentation and temporary buffers: plan to stay below it.`,
  sources: 'Where each number comes from',
  terminal: 'In a terminal:',
  copyCommand: 'Copy as command',
  copiedCommand: 'Copied',
  timelineTitle: 'One step, moment by moment',
  timelineCaption:
    'Memory alive on one GPU at each moment of the step, in the order they happen, by part. The solid line is the GPU’s memory, the dashed one the free margin.',
  timelineAxis: 'GiB alive per GPU',
  compareTitle: 'Before and after, at each one’s peak',
  compareAxis: 'GiB per GPU at the peak',
  peakMark: 'peak',
  categories: MEMORY_PART_LABELS,
  moments: {
    forward: 'forward',
    'forward-accumulating': 'later forward',
    'backward-start': 'loss backward',
    'backward-top': 'last layer backward',
    'backward-end': 'backward end',
    optimizer: 'optimizer step',
    prefill: 'prefill',
    decode: 'decode',
  },
} as const;
