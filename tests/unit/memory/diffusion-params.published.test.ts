/**
 * Diffusion pipelines' parts counted from committed, real configs (src/memory/model-configs/diffusers/, SOURCES.md
 * there) and from their text encoders' config.json keys: each count must equal what was published for that checkpoint,
 * to the parameter.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countDitParams, PIPELINES, readDiffusersConfig } from '../../../src/memory/index.ts';

function shapeOf(file: string) {
  const text = readFileSync(new URL(`../../../src/memory/model-configs/diffusers/${file}`, import.meta.url), 'utf8');
  const reading = readDiffusersConfig(text);
  if (!reading.ok) throw new Error(reading.errors.map((e) => e.message).join('; '));
  return reading.shape;
}

const encoder = (family: 'wan' | 'flux' | 'sd3', name: string) =>
  PIPELINES[family].textEncoders.find((e) => e.name === name)?.params ?? Number.NaN;

describe('diffusion transformers counted from their diffusers config.json', () => {
  test('Wan 2.1 T2V 14B: 14,288,491,584 (Wan-AI/Wan2.1-T2V-14B safetensors metadata, F32 14288491584)', () => {
    expect(countDitParams(shapeOf('wan2.1-t2v-14b.json')).total).toBe(14_288_491_584);
  });

  test('Wan 2.1 T2V 1.3B: 1,418,996,800 (Wan-AI/Wan2.1-T2V-1.3B safetensors metadata, F32 1418996800)', () => {
    expect(countDitParams(shapeOf('wan2.1-t2v-1.3b.json')).total).toBe(1_418_996_800);
  });

  test('FLUX.1-dev: 11,901,408,320 (black-forest-labs/FLUX.1-dev transformer, BF16 total_size 23802816640 / 2)', () => {
    expect(countDitParams(shapeOf('flux.1-dev.json')).total).toBe(23_802_816_640 / 2);
  });

  test('fp8 layerwise casting keeps the skipped layers in bf16: fp8-stored params are most of the model (over half), never all', () => {
    for (const file of ['wan2.1-t2v-14b.json', 'flux.1-dev.json', 'sd3-medium.json']) {
      const counts = countDitParams(shapeOf(file));
      expect(counts.fp8Stored).toBeGreaterThan(0.5 * counts.total);
      expect(counts.fp8Stored).toBeLessThan(counts.total);
      expect(counts.largestCastLinear).toBeLessThan(counts.fp8Stored / 100);
    }
  });
});

describe('text encoders counted from their config.json keys', () => {
  test('UMT5-XXL encoder: 5,680,910,336 (Wan2.1-T2V-14B-Diffusers text_encoder, 11361820672 BF16 bytes / 2)', () => {
    expect(encoder('wan', 'UMT5-XXL encoder')).toBe(11_361_820_672 / 2);
  });

  test('T5 v1.1 XXL encoder: 4,762,310,656 (FLUX.1-dev text_encoder_2 safetensors metadata)', () => {
    expect(encoder('flux', 'T5 v1.1 XXL encoder')).toBe(4_762_310_656);
  });

  test('SD3 medium: CLIP-L with projection 123,650,304 and OpenCLIP bigG with projection 694,659,840 (the same inspection table)', () => {
    expect(encoder('sd3', 'CLIP ViT-L/14 text')).toBe(123_650_304);
    expect(encoder('sd3', 'OpenCLIP ViT-bigG/14 text')).toBe(694_659_840);
    expect(encoder('sd3', 'T5 v1.1 XXL encoder')).toBe(4_762_310_656);
  });

  test('CLIP ViT-L/14 text: 123,060,480 (openai/clip-vit-large-patch14 CLIPTextModel, FLUX.1-dev text_encoder)', () => {
    expect(encoder('flux', 'CLIP ViT-L/14 text')).toBe(123_060_480);
  });
});
