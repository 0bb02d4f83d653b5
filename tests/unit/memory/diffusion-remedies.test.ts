/**
 * diffusionRemedies: the changes that make a generation fit are computed by the estimate itself, and only the smallest
 * sets are kept. The walk-through: Wan 2.1 14B at 720p, 81 frames, bf16 on a 24 GB RTX 4090.
 */
import { describe, expect, test } from 'vitest';
import {
  diffusionRemedies,
  estimateDiffusion,
  formatChanges,
  type DiffusionChange,
  type DiffusionOptions,
} from '../../../src/memory/index.ts';
import { WAN_14B_720P } from '../support/diffusion-cases.ts';

/** The options with a remedy's changes made, as the command line would make them. */
function applied(options: DiffusionOptions, changes: readonly DiffusionChange[]): DiffusionOptions {
  return changes.reduce<DiffusionOptions>((next, c) => {
    if (c.flag === 'text-encoder-cpu') return { ...next, textEncoderOnCpu: true };
    if (c.flag === 'vae-tiling') return { ...next, vaeTiling: true };
    return c.flag === 'offload'
      ? { ...next, offload: c.value as DiffusionOptions['offload'] }
      : { ...next, weights: c.value as DiffusionOptions['weights'] };
  }, options);
}

describe('what makes Wan 2.1 14B at 720p fit on a 24 GB card', () => {
  const remedies = diffusionRemedies(WAN_14B_720P);

  test('it does not fit as it is, and there are remedies', () => {
    const outcome = estimateDiffusion(WAN_14B_720P);
    expect(outcome.ok && outcome.result.fits).toBe(false);
    expect(remedies.length).toBeGreaterThan(0);
  });

  test('each remedy, made, fits with the peak it states', () => {
    for (const remedy of remedies) {
      const outcome = estimateDiffusion(applied(WAN_14B_720P, remedy.changes));
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) continue;
      expect(outcome.result.fits).toBe(true);
      expect(outcome.result.peak).toBe(remedy.peak);
      expect(outcome.result.hostTransfer.seconds).toBe(remedy.transferSeconds);
    }
  });

  test('no remedy holds a smaller one that fits, and any one change less stops it fitting', () => {
    for (const remedy of remedies)
      for (const dropped of remedy.changes) {
        const fewer = remedy.changes.filter((c) => c !== dropped);
        const outcome = estimateDiffusion(applied(WAN_14B_720P, fewer));
        expect(outcome.ok && outcome.result.fits).toBe(false);
      }
  });

  test('the remedies come fastest first, and include the offloads that need no fp8 weights', () => {
    const seconds = remedies.map((r) => r.transferSeconds);
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    const commands = remedies.map((r) => formatChanges(r.changes));
    expect(commands).toContain('--offload sequential');
    expect(commands).toContain('--offload group');
  });

  test('options that already fit, and options with no GPU, need no remedy', () => {
    const [first] = remedies;
    expect(first).toBeDefined();
    if (first !== undefined) expect(diffusionRemedies(applied(WAN_14B_720P, first.changes))).toEqual([]);
    expect(diffusionRemedies({ ...WAN_14B_720P, gpu: null })).toEqual([]);
  });
});
