/**
 * Offload for diffusion pipelines as diffusers does it (model, sequential and group offload): what each keeps on the
 * GPU, what it keeps on the host, and what it copies over the host link in one generation. Every option the figures
 * depend on (weights, offload, guidance, steps, tiling) is passed explicitly.
 */
import { describe, expect, test } from 'vitest';
import {
  countDitParams,
  DIFFUSION_PHASES,
  estimateDiffusion,
  PIPELINES,
  type DiffusionEstimate,
  type DiffusionOffload,
} from '../../../src/memory/index.ts';
import { estimated, presetShape, WAN_14B_720P } from '../support/diffusion-cases.ts';

const withOffload = (offload: DiffusionOffload) => estimated({ ...WAN_14B_720P, offload });
const lineLive = (result: DiffusionEstimate, id: string) => result.lines.find((l) => l.id === id)?.live ?? [];
const DENOISE = DIFFUSION_PHASES.indexOf('denoise');

const wan = PIPELINES.wan;
const transformerBytes = countDitParams(WAN_14B_720P.shape).total * 2;
const encoderBytes = (wan.textEncoders[0]?.params ?? 0) * 2;
const vaeBytes = wan.vae.params * wan.vae.bytesPerValue;

describe('what each offload keeps on the GPU', () => {
  test('sequential offload holds the largest module: the condition embedder time_proj, nn.Linear(5120, 6 × 5120) with bias', () => {
    // transformer_wan.py WanTimeTextImageEmbedding: time_proj = nn.Linear(dim, time_proj_dim = dim * 6).
    const dim = 40 * 128;
    expect(lineLive(withOffload('sequential'), 'transformer-weights')).toEqual([0, (dim * 6 * dim + 6 * dim) * 2, 0]);
  });

  test('group offload holds all but the blocks, and two blocks (the running one and the prefetched next)', () => {
    const counts = countDitParams(WAN_14B_720P.shape);
    // Wan's 40 blocks are alike: the blocks together are 40 times the largest.
    expect(counts.blocks.all.params).toBe(40 * counts.blocks.largest.params);
    const expected = transformerBytes - 38 * counts.blocks.largest.params * 2;
    expect(lineLive(withOffload('group'), 'transformer-weights')).toEqual([0, expected, 0]);
  });

  test('the transformer weights on the GPU while denoising: none = text-encoder = model > group > sequential', () => {
    const denoising = (offload: DiffusionOffload) => lineLive(withOffload(offload), 'transformer-weights')[DENOISE] ?? 0;
    expect(denoising('none')).toBe(transformerBytes);
    expect(denoising('text-encoder')).toBe(transformerBytes);
    expect(denoising('model')).toBe(transformerBytes);
    expect(denoising('group')).toBeLessThan(transformerBytes / 10);
    expect(denoising('sequential')).toBeLessThan(denoising('group'));
  });

  test('sequential offload brings the text encoder a module at a time: its token embedding, 256,384 × 4,096', () => {
    // UMT5-XXL's shared embedding (text_encoder/config.json vocab_size 256384, d_model 4096), bf16.
    expect(lineLive(withOffload('sequential'), 'text-encoder-1')).toEqual([256_384 * 4096 * 2, 0, 0]);
  });

  test('sequential and group offload keep every weight on the host; model offload moves them', () => {
    const everything = transformerBytes + encoderBytes + vaeBytes;
    expect(withOffload('sequential').hostPeak).toBe(everything);
    expect(withOffload('group').hostPeak).toBe(everything);
    // While the transformer denoises, the text encoder and the VAE wait on the host.
    expect(withOffload('model').hostPeak).toBe(
      Math.max(transformerBytes + vaeBytes, encoderBytes + vaeBytes, transformerBytes + encoderBytes),
    );
  });
});

describe('what each offload copies over the host link in one generation', () => {
  test('none copies nothing; text-encoder offload moves the encoder off once', () => {
    expect(withOffload('none').hostTransfer).toMatchObject({ bytes: 0, seconds: 0 });
    expect(withOffload('text-encoder').hostTransfer.bytes).toBe(encoderBytes);
  });

  test('model offload moves each component on and back off once', () => {
    expect(withOffload('model').hostTransfer.bytes).toBe(2 * (transformerBytes + encoderBytes + vaeBytes));
  });

  test('sequential offload copies the transformer for each of its passes: 50 steps × 2 guidance passes', () => {
    const transfer = withOffload('sequential').hostTransfer;
    expect(transfer).toMatchObject({ steps: 50, passes: 100 });
    expect(transfer.bytes).toBe(100 * transformerBytes + encoderBytes + vaeBytes);
  });

  test('seconds are the bytes over the RTX 4090 host link, PCIe 4.0 x16 at 32 GB/s one direction', () => {
    const transfer = withOffload('sequential').hostTransfer;
    expect(transfer.seconds).toBeCloseTo(transfer.bytes / 32e9, 9);
    expect(estimated({ ...WAN_14B_720P, offload: 'sequential', gpu: null }).hostTransfer.seconds).toBeNull();
  });

  test('batched guidance (SD3) runs one pass per step; fewer steps copy less', () => {
    const sd3 = estimated({
      ...WAN_14B_720P,
      shape: presetShape('sd3-medium'),
      width: 1024,
      height: 1024,
      frames: 1,
      guidance: 'batched',
      offload: 'group',
      steps: 28,
    });
    expect(sd3.hostTransfer.passes).toBe(28);
    const fewer = estimated({ ...WAN_14B_720P, offload: 'group', steps: 10 });
    expect(fewer.hostTransfer.bytes).toBeLessThan(withOffload('group').hostTransfer.bytes);
  });

  test('a step count that is not a whole number from 1 to 1000 names the field', () => {
    for (const steps of [0, 1.5, 1001]) {
      const outcome = estimateDiffusion({ ...WAN_14B_720P, steps });
      expect(outcome.ok ? [] : outcome.errors.map((e) => e.field)).toEqual(['steps']);
    }
  });
});
