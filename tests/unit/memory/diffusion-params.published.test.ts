/**
 * Diffusion pipelines' parts counted from committed, real configs (src/memory/model-configs/diffusers/, SOURCES.md
 * there) and from their text encoders' config.json keys: each count must equal what was published for that checkpoint,
 * to the parameter.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countDitParams, pipelineFor, PIPELINES, readDiffusersConfig } from '../../../src/memory/index.ts';

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

  // Stability AI's model cards give SD3.5's sizes to a tenth of a billion ("8.1 billion parameters", "2.5 billion
  // parameters", MMDiT-X), counting every tensor the checkpoint stores: the parameters and the stored sin-cos
  // position table (a persistent buffer, pos_embed_max_size² × width).
  const checkpointTensors = (file: string) => {
    const counts = countDitParams(shapeOf(file));
    return counts.total + counts.buffers;
  };
  test('SD3.5 Large: 8.1 billion tensors stored (Stability AI model card "8.1 billion parameters", to 0.1 B)', () => {
    expect(Math.round(checkpointTensors('sd3.5-large.json') / 1e8) / 10).toBe(8.1);
  });

  test('SD3.5 Medium: 2.5 billion tensors stored (Stability AI model card "2.5 billion parameters", to 0.1 B)', () => {
    expect(Math.round(checkpointTensors('sd3.5-medium.json') / 1e8) / 10).toBe(2.5);
  });

  test("SD3.5 Medium's 13 MMDiT-X blocks and q/k norms, tensor by tensor against the same config without them", () => {
    const medium = JSON.parse(
      readFileSync(new URL('../../../src/memory/model-configs/diffusers/sd3.5-medium.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    const plain = readDiffusersConfig({ ...medium, dual_attention_layers: [], qk_norm: null });
    if (!plain.ok) throw new Error('the plain config must read');
    const [dim, headDim, layers] = [24 * 64, 64, 24];
    const linear = (inputs: number, outputs: number) => inputs * outputs + outputs;
    // attention.py JointTransformerBlock: attn2 (to_q, to_k, to_v, to_out[0], biased) with its norm_q, norm_k; norm1
    // becomes SD35AdaLayerNormZeroX (dim→9·dim). attention_processor.py: rms_norm adds norm_q, norm_k, norm_added_q,
    // norm_added_k, RMSNorm(head_dim) with a weight, to every block's joint attention.
    const mmditX = 4 * linear(dim, dim) + 2 * headDim + linear(dim, 9 * dim) - linear(dim, 6 * dim);
    expect(countDitParams(shapeOf('sd3.5-medium.json')).total - countDitParams(plain.shape).total).toBe(
      13 * mmditX + layers * 4 * headDim,
    );
  });

  test('Wan 2.1 I2V 14B: T2V 14B plus the image path, tensor by tensor (no published exact total was found)', () => {
    const [dim, imageDim, addedKv, layers] = [5120, 1280, 5120, 40];
    const linear = (inputs: number, outputs: number) => inputs * outputs + outputs;
    // transformer_wan.py: each block's cross-attention gains add_k_proj, add_v_proj and norm_added_k (WanAttention);
    // the condition embedder gains WanImageEmbedding (two affine LayerNorms around image_dim→image_dim→dim); the patch
    // embedding takes 36 channels instead of 16 (the mask and the encoded first frame) over (1, 2, 2) patches.
    const perBlock = 2 * linear(addedKv, dim) + dim;
    const imageEmbedder = 2 * imageDim + linear(imageDim, imageDim) + linear(imageDim, dim) + 2 * dim;
    const patchChannels = (36 - 16) * dim * 4;
    expect(countDitParams(shapeOf('wan2.1-i2v-14b-720p.json')).total).toBe(
      countDitParams(shapeOf('wan2.1-t2v-14b.json')).total + layers * perBlock + imageEmbedder + patchChannels,
    );
  });

  test('CLIP ViT-H/14 vision tower: with its 1280 × 1024 projection, ×4 B, the fp32 file h94/IP-Adapter image_encoder/model.safetensors (2,528,373,448 B) less its header', () => {
    const i2v = pipelineFor(shapeOf('wan2.1-i2v-14b-720p.json'));
    const params = i2v.imageEncoder?.params ?? Number.NaN;
    // The file is CLIPVisionModelWithProjection (its config.json's architectures); Wan loads CLIPVisionModel, without
    // visual_projection. What is left of the file is the safetensors JSON header: tens of KB for ~400 tensor entries.
    const header = 2_528_373_448 - (params + 1280 * 1024) * 4;
    expect(header).toBeGreaterThan(0);
    expect(header).toBeLessThan(100_000);
  });

  test('fp8 layerwise casting keeps the skipped layers in bf16: fp8-stored params are most of the model (over half), never all', () => {
    for (const file of [
      'wan2.1-t2v-14b.json',
      'wan2.1-i2v-14b-720p.json',
      'flux.1-dev.json',
      'sd3-medium.json',
      'sd3.5-medium.json',
    ]) {
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
