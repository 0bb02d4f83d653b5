/** readDiffusersConfig: diffusers transformer configs in, a shape or one error naming the field out. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { isDiffusersConfig, readDiffusersConfig } from '../../../src/memory/index.ts';

const committed = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../../src/memory/model-configs/diffusers/${file}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

const WAN_14B = committed('wan2.1-t2v-14b.json');

/** The fields of a failed reading. */
function failedFields(input: unknown): string[] {
  const reading = readDiffusersConfig(input);
  if (reading.ok) throw new Error('expected the config to be refused');
  return reading.errors.map((e) => e.field);
}

describe('readDiffusersConfig', () => {
  test('recognises the family by _class_name', () => {
    expect(readDiffusersConfig(JSON.stringify(WAN_14B))).toMatchObject({
      ok: true,
      className: 'WanTransformer3DModel',
      shape: { family: 'wan' },
    });
    expect(readDiffusersConfig(committed('flux.1-dev.json'))).toMatchObject({
      ok: true,
      shape: { family: 'flux', guidanceEmbeds: true },
    });
  });

  test("a key left out takes the class default (WanTransformer3DModel's defaults are the 14B shape)", () => {
    const reading = readDiffusersConfig({ _class_name: 'WanTransformer3DModel' });
    const full = readDiffusersConfig(WAN_14B);
    if (!reading.ok || !full.ok) throw new Error('expected both to read');
    expect(reading.shape).toEqual(full.shape);
  });

  test('out_channels null means in_channels (FLUX.1-dev leaves it out)', () => {
    expect(readDiffusersConfig({ _class_name: 'FluxTransformer2DModel', in_channels: 64, out_channels: null })).toMatchObject({
      ok: true,
      shape: { outChannels: 64 },
    });
  });

  test('a Transformers config, or a class the engine does not count, is refused naming _class_name', () => {
    expect(failedFields({ model_type: 'llama', hidden_size: 4096 })).toEqual(['_class_name']);
    expect(failedFields({ _class_name: 'UNet2DConditionModel' })).toEqual(['_class_name']);
  });

  test('malformed JSON and a non-object are refused naming the file', () => {
    expect(failedFields('{"_class_name": ')).toEqual(['config']);
    expect(failedFields('[1, 2]')).toEqual(['config']);
  });

  test('absurd values name their key: zero heads, a negative width, a bad patch, a flag that is not a boolean', () => {
    expect(failedFields({ ...WAN_14B, num_attention_heads: 0 })).toEqual(['num_attention_heads']);
    expect(failedFields({ ...WAN_14B, ffn_dim: -5 })).toEqual(['ffn_dim']);
    expect(failedFields({ ...WAN_14B, patch_size: [1, 2] })).toEqual(['patch_size']);
    expect(failedFields({ ...WAN_14B, cross_attn_norm: 'yes' })).toEqual(['cross_attn_norm']);
    expect(failedFields({ ...WAN_14B, num_layers: 1.5 })).toEqual(['num_layers']);
  });

  test('image-to-video Wan needs image_dim and added_kv_proj_dim together: one alone is refused, naming it', () => {
    expect(failedFields({ ...WAN_14B, in_channels: 36, image_dim: 1280, added_kv_proj_dim: null })).toEqual(['image_dim']);
    expect(failedFields({ ...WAN_14B, in_channels: 36, image_dim: null, added_kv_proj_dim: 5120 })).toEqual([
      'added_kv_proj_dim',
    ]);
  });

  test('SD3.5 keys: qk_norm other than rms_norm, and dual attention outside the blocks that have two streams, are refused', () => {
    const sd3 = { _class_name: 'SD3Transformer2DModel', num_layers: 24 };
    expect(failedFields({ ...sd3, qk_norm: 'layer_norm' })).toEqual(['qk_norm']);
    // The 24th block (index 23) updates the image stream only: diffusers' SD3.5 never puts a second attention there.
    expect(failedFields({ ...sd3, dual_attention_layers: [0, 23] })).toEqual(['dual_attention_layers']);
    expect(failedFields({ ...sd3, dual_attention_layers: [1, 1] })).toEqual(['dual_attention_layers']);
  });

  test('isDiffusersConfig tells a diffusers component from a Transformers config', () => {
    expect(isDiffusersConfig(WAN_14B)).toBe(true);
    expect(isDiffusersConfig({ model_type: 'qwen3' })).toBe(false);
    expect(isDiffusersConfig(null)).toBe(false);
  });
});
