/**
 * What would make a generation fit on its GPU: every combination of the changes a reader can make without changing
 * the output (where the text encoders run, VAE tiling, offload, fp8 transformer weights) is estimated with
 * `estimateDiffusion`, and the smallest combinations that fit are kept, fastest first. Computed, never listed by hand.
 * Pure: no I/O.
 */
import { DIFFUSION_OFFLOADS, estimateDiffusion, type DiffusionOptions, type DiffusionPhase } from './diffusion.ts';

/** One change, as the `diffusion` command's flag and value that make it (`true` for a switch). */
export interface DiffusionChange {
  readonly flag: 'text-encoder-cpu' | 'vae-tiling' | 'offload' | 'weights';
  readonly value: string | true;
}

/** A set of changes that fits, with what it costs. */
export interface DiffusionRemedy {
  readonly changes: readonly DiffusionChange[];
  readonly peak: number;
  readonly peakPhase: DiffusionPhase;
  /** Seconds of host-link copies in one generation (HostTransfer.seconds). */
  readonly transferSeconds: number;
}

/** The options a set of changes gives. */
function applyChanges(options: DiffusionOptions, changes: readonly DiffusionChange[]): DiffusionOptions {
  let next = options;
  for (const change of changes) {
    if (change.flag === 'text-encoder-cpu') next = { ...next, textEncoderOnCpu: true };
    else if (change.flag === 'vae-tiling') next = { ...next, vaeTiling: true };
    else if (change.flag === 'offload') next = { ...next, offload: change.value as DiffusionOptions['offload'] };
    else next = { ...next, weights: change.value as DiffusionOptions['weights'] };
  }
  return next;
}

/** Every combination of the changes `options` leaves open (one value per flag), the empty one included. */
function combinations(options: DiffusionOptions): DiffusionChange[][] {
  const choices: DiffusionChange[][] = [
    options.textEncoderOnCpu ? [] : [{ flag: 'text-encoder-cpu', value: true }],
    options.vaeTiling ? [] : [{ flag: 'vae-tiling', value: true }],
    DIFFUSION_OFFLOADS.filter((o) => o !== options.offload).map((value) => ({ flag: 'offload', value })),
    options.weights === 'fp8' ? [] : [{ flag: 'weights', value: 'fp8' }],
  ];
  // Each flag is either left as it is or set to one of its other values.
  return choices.reduce<DiffusionChange[][]>(
    (sets, values) => [...sets, ...sets.flatMap((set) => values.map((change) => [...set, change]))],
    [[]],
  );
}

const sameChange = (a: DiffusionChange, b: DiffusionChange) => a.flag === b.flag && a.value === b.value;

/**
 * The smallest sets of changes that make `options` fit on its GPU (no set kept contains another set that fits),
 * ordered by host-link time, then by how many changes they make. Empty when there is no GPU or it already fits.
 */
export function diffusionRemedies(options: DiffusionOptions): DiffusionRemedy[] {
  if (options.gpu === null) return [];
  const fitting: DiffusionRemedy[] = [];
  for (const changes of combinations(options)) {
    const outcome = estimateDiffusion(applyChanges(options, changes));
    if (!outcome.ok || outcome.result.fits !== true) continue;
    if (changes.length === 0) return [];
    const { peak, peakPhase, hostTransfer } = outcome.result;
    fitting.push({ changes, peak, peakPhase, transferSeconds: hostTransfer.seconds ?? 0 });
  }
  const contains = (outer: DiffusionRemedy, inner: DiffusionRemedy) =>
    inner.changes.every((change) => outer.changes.some((other) => sameChange(change, other)));
  return fitting
    .filter(
      (remedy) =>
        !fitting.some((other) => other !== remedy && other.changes.length < remedy.changes.length && contains(remedy, other)),
    )
    .sort((a, b) => a.transferSeconds - b.transferSeconds || a.changes.length - b.changes.length || a.peak - b.peak);
}

/** A set of changes as the command-line flags that make it, e.g. `--offload model --weights fp8`. */
export function formatChanges(changes: readonly DiffusionChange[]): string {
  return changes.map((c) => (c.value === true ? `--${c.flag}` : `--${c.flag} ${c.value}`)).join(' ');
}
