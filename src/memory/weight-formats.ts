/**
 * Weight storage formats counted the way the libraries store them: which Linear layers each quantizes,
 * the packed weights, the per-block or per-group scales, and the small per-tensor constants.
 * Sizes are tensor bytes (what `tensor.nbytes` sums to), before the CUDA allocator rounds each tensor up.
 */
import { ruleError } from './rule-words.ts';
import type { Arch, ModelConfig } from './model.ts';
import type { FieldError } from './options.ts';
import { countParams } from './params.ts';
import { isHeadTied, linearLayers, linearWeightParams, type LinearLayer } from './linear-layers.ts';
import { ceilDiv } from './ceil-div.ts';

/**
 * A weight storage format: plain floats, bitsandbytes (LLM.int8, NF4/FP4 with or without double quantization), GPTQ or
 * AWQ 4-bit, and two formats checkpoints ship in: DeepSeek-V3's block-scaled FP8 and gpt-oss's MXFP4 experts.
 */
export type WeightFormat =
  'fp32' | 'fp16' | 'bf16' | 'llm-int8' | 'nf4' | 'nf4-dq' | 'fp4' | 'fp4-dq' | 'gptq' | 'awq' | 'fp8-block' | 'mxfp4';

/** Every weight format, in the order the CLI lists them. */
export const WEIGHT_FORMATS: readonly WeightFormat[] = [
  'fp32',
  'fp16',
  'bf16',
  'llm-int8',
  'nf4',
  'nf4-dq',
  'fp4',
  'fp4-dq',
  'gptq',
  'awq',
  'fp8-block',
  'mxfp4',
];

/** What `--weights` takes: a format, or `stored`, the format the checkpoint ships in (model.ts `storedWeights`). */
export type WeightChoice = WeightFormat | 'stored';

/** Every weight choice: the formats, then `stored`. */
export const WEIGHT_CHOICES: readonly WeightChoice[] = [...WEIGHT_FORMATS, 'stored'];

/** bitsandbytes 4-bit block size: 64 weights share one absmax (bitsandbytes nn/modules.py `Params4bit`, `blocksize=None` → 64). */
export const BNB_4BIT_BLOCK = 64;
/** Double quantization: 256 absmax values share one fp32 scale (bitsandbytes functional.py `quantize_4bit`: `quantize_blockwise(_absmax - offset, blocksize=256)`). */
export const BNB_DQ_BLOCK = 256;
/** Entries of a 4-bit code table, fp32 (bitsandbytes functional.py `get_4bit_type`: `assert data.numel() == 16`; a new tensor per quantized weight). */
export const BNB_4BIT_CODE_ENTRIES = 16;
/** Entries of the 8-bit dynamic map copied into every nested quant state, fp32 (functional.py `create_dynamic_map`, `code.to(A.device, copy=True)`). */
export const BNB_DYNAMIC_CODE_ENTRIES = 256;
/** FP8 block size: one fp32 `weight_scale_inv` per 128 × 128 block (DeepSeek-V3 config.json `quantization_config.weight_block_size`). */
export const FP8_BLOCK = 128;
/** MXFP4 block: 32 FP4 (e2m1) values share one 8-bit E8M0 scale, 4.25 bits per weight (OCP Microscaling Formats (MX) v1.0 §5.3). */
export const MXFP4_BLOCK = 32;
/** GPTQ and AWQ group size: 128 input rows share one fp16 scale and one packed zero per output column (the checkpoints' usual `group_size`). */
export const QUANT_GROUP_SIZE = 128;

/** What a format stores and which layers it touches. */
export interface WeightFormatSpec {
  /** Human-readable name. */
  label: string;
  /** Whether the block Linear layers are stored quantized (false for plain floats). */
  quantized: boolean;
  /** Bytes per element of the parameters the format leaves alone (embeddings, head, norms, biases) as loaded. */
  keptBytes: number;
  /** Whether a mixture-of-experts router is quantized too. */
  quantizesRouter: boolean;
  /** Which block Linear layers are stored quantized: all of them, or a mixture of experts' routed experts only (gpt-oss MXFP4). */
  scope: 'block' | 'experts';
  /** Architectures the library can store this way. */
  archs: readonly Arch[];
  /** Where the layout comes from (library file and commit read). */
  source: string;
}

const ALL_ARCHS: readonly Arch[] = ['gpt2', 'llama', 'bert', 'mlp'];
const BNB_SOURCE =
  'bitsandbytes 95f9af3 functional.py quantize_4bit / get_4bit_type, backends/cuda/ops.py, nn/modules.py; ' +
  'Transformers 01ae98a integrations/bitsandbytes.py _replace_with_bnb_linear + get_keys_to_not_convert (every Linear/Conv1D except the output head or, without one, the last module); ' +
  'Transformers 009ba7c quantizers/quantizer_bnb_4bit.py update_torch_dtype loads the rest in float16 when no dtype is given';

/**
 * Every format. bitsandbytes quantizes every nn.Linear/Conv1D the model has except the output head
 * (`lm_head`; BertModel's last module `pooler.dense`), a MoE router included.
 * AutoGPTQ quantizes the `inside_layer_modules` of each block (modeling/llama.py, gpt2.py, mixtral.py: no router);
 * AutoAWQ the block linears with `modules_to_not_convert = ["gate"]` for Mixtral (awq/models/mixtral.py).
 * The site's plain `mlp` is not a Transformers model; it is counted as `replace_with_bnb_linear` would treat it:
 * input and hidden Linear layers quantized, the classifier (its last module) kept.
 */
export const WEIGHT_FORMAT_SPECS: Readonly<Record<WeightFormat, WeightFormatSpec>> = {
  fp32: {
    label: 'fp32',
    quantized: false,
    keptBytes: 4,
    quantizesRouter: false,
    scope: 'block',
    archs: ALL_ARCHS,
    source: 'PyTorch float32, 4 bytes per element',
  },
  fp16: {
    label: 'fp16',
    quantized: false,
    keptBytes: 2,
    quantizesRouter: false,
    scope: 'block',
    archs: ALL_ARCHS,
    source: 'PyTorch float16, 2 bytes per element',
  },
  bf16: {
    label: 'bf16',
    quantized: false,
    keptBytes: 2,
    quantizesRouter: false,
    scope: 'block',
    archs: ALL_ARCHS,
    source: 'PyTorch bfloat16, 2 bytes per element',
  },
  'llm-int8': {
    label: 'bitsandbytes LLM.int8',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: true,
    scope: 'block',
    archs: ALL_ARCHS,
    source: `${BNB_SOURCE}; Int8Params._quantize: int8 CB [out, in] + fp32 SCB [out] (arXiv 2208.07339)`,
  },
  nf4: {
    label: 'bitsandbytes NF4',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: true,
    scope: 'block',
    archs: ALL_ARCHS,
    source: `${BNB_SOURCE} (arXiv 2305.14314 §3)`,
  },
  'nf4-dq': {
    label: 'bitsandbytes NF4 + double quantization',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: true,
    scope: 'block',
    archs: ALL_ARCHS,
    source: `${BNB_SOURCE}; compress_statistics=True (arXiv 2305.14314 §3 "Double Quantization")`,
  },
  fp4: {
    label: 'bitsandbytes FP4',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: true,
    scope: 'block',
    archs: ALL_ARCHS,
    source: BNB_SOURCE,
  },
  'fp4-dq': {
    label: 'bitsandbytes FP4 + double quantization',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: true,
    scope: 'block',
    archs: ALL_ARCHS,
    source: `${BNB_SOURCE}; compress_statistics=True`,
  },
  gptq: {
    label: 'GPTQ 4-bit, group 128',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: false,
    scope: 'block',
    archs: ['gpt2', 'llama'],
    source:
      'AutoGPTQ 9f7d370 nn_modules/qlinear/qlinear_cuda_old.py buffers qweight int32 [in/32·4, out], qzeros int32 [⌈in/g⌉, out/32·4], scales fp16 [⌈in/g⌉, out], g_idx int32 [in]; modeling/{gpt2,llama,mixtral}.py (arXiv 2210.17323)',
  },
  awq: {
    label: 'AWQ 4-bit GEMM, group 128',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: false,
    scope: 'block',
    archs: ['llama'],
    source:
      'AutoAWQ 88e4c76 awq/modules/linear/gemm.py WQLinear_GEMM buffers qweight int32 [in, out/8], qzeros int32 [in/g, out/8], scales fp16 [in/g, out]; no g_idx (arXiv 2306.00978)',
  },
  'fp8-block': {
    label: 'FP8 e4m3, 128 × 128 blocks, as DeepSeek-V3 ships',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: false,
    scope: 'block',
    archs: ['llama'],
    source:
      'DeepSeek-V3 README_WEIGHTS.md "FP8 Weight Documentation": e4m3 weights, a float32 weight_scale_inv per 128 × 128 block; config.json quantization_config weight_block_size [128, 128]; embeddings, head, norms and router in bf16, the router bias in fp32 (inference/model.py Gate)',
  },
  mxfp4: {
    label: 'MXFP4 experts, bf16 elsewhere, as gpt-oss ships',
    quantized: true,
    keptBytes: 2,
    quantizesRouter: false,
    scope: 'experts',
    archs: ['llama'],
    source:
      "OCP Microscaling Formats (MX) v1.0: 32 FP4 e2m1 values and one E8M0 scale (4.25 bits per weight); gpt-oss config.json quantization_config quant_method mxfp4, modules_to_not_convert self_attn, router, embed_tokens, lm_head (the checkpoint's *_blocks and *_scales tensors)",
  },
};

/** Bytes of one stored Linear weight (bias excluded: it stays 16-bit and is counted with the kept parameters). */
export interface LinearWeightBytes {
  /** Every byte the weight's tensors hold: packed data, scales, zeros, indices and constants. */
  bytes: number;
  /** Part of `bytes` that does not grow with the weight: code tables and the double-quantization offset. */
  constantBytes: number;
}

/** bitsandbytes 4-bit (NF4 or FP4): packed nibbles, one absmax per 64 weights (fp32, or uint8 + nested fp32 scales), the code tables. */
function bnb4bitBytes(weights: number, doubleQuant: boolean): LinearWeightBytes {
  const packed = ceilDiv(weights, 2); // quant_storage uint8: (n + 1) // 2 bytes
  const blocks = ceilDiv(weights, BNB_4BIT_BLOCK);
  const code = 4 * BNB_4BIT_CODE_ENTRIES;
  if (!doubleQuant) return { bytes: packed + 4 * blocks + code, constantBytes: code };
  // uint8 absmax per block, fp32 absmax per 256 blocks, a 0-d fp32 offset and a copy of the 256-entry dynamic map.
  const constantBytes = code + 4 + 4 * BNB_DYNAMIC_CODE_ENTRIES;
  return { bytes: packed + blocks + 4 * ceilDiv(blocks, BNB_DQ_BLOCK) + constantBytes, constantBytes };
}

/** GPTQ (AutoGPTQ QuantLinear, 4 bits): qweight, qzeros, fp16 scales per group and column, g_idx per input row. */
function gptqBytes(inFeatures: number, outFeatures: number): number {
  const groups = ceilDiv(inFeatures, QUANT_GROUP_SIZE);
  const qweight = Math.floor(inFeatures / 32) * 4 * outFeatures * 4;
  const qzeros = groups * Math.floor(outFeatures / 32) * 4 * 4;
  const scales = groups * outFeatures * 2;
  const gIdx = inFeatures * 4;
  return qweight + qzeros + scales + gIdx;
}

/** AWQ (AutoAWQ WQLinear_GEMM, 4 bits): qweight and qzeros pack 8 columns per int32, fp16 scales per group and column. */
function awqBytes(inFeatures: number, outFeatures: number): number {
  const groups = Math.floor(inFeatures / QUANT_GROUP_SIZE);
  const packedColumns = Math.floor(outFeatures / 8);
  return inFeatures * packedColumns * 4 + groups * packedColumns * 4 + groups * outFeatures * 2;
}

/** Bytes of one `inFeatures × outFeatures` Linear weight stored as `format` (validate shapes with `validateWeightFormat`). */
export function linearWeightBytes(inFeatures: number, outFeatures: number, format: WeightFormat): LinearWeightBytes {
  const weights = inFeatures * outFeatures;
  switch (format) {
    case 'fp32':
      return { bytes: 4 * weights, constantBytes: 0 };
    case 'fp16':
    case 'bf16':
      return { bytes: 2 * weights, constantBytes: 0 };
    case 'llm-int8':
      return { bytes: weights + 4 * outFeatures, constantBytes: 0 };
    case 'nf4':
    case 'fp4':
      return bnb4bitBytes(weights, false);
    case 'nf4-dq':
    case 'fp4-dq':
      return bnb4bitBytes(weights, true);
    case 'gptq':
      return { bytes: gptqBytes(inFeatures, outFeatures), constantBytes: 0 };
    case 'awq':
      return { bytes: awqBytes(inFeatures, outFeatures), constantBytes: 0 };
    case 'fp8-block':
      return { bytes: weights + 4 * ceilDiv(outFeatures, FP8_BLOCK) * ceilDiv(inFeatures, FP8_BLOCK), constantBytes: 0 };
    case 'mxfp4':
      // Blocks run along the input dimension: [out, in/32, 16] packed nibbles and [out, in/32] scales (uint8 each).
      return { bytes: weights / 2 + outFeatures * ceilDiv(inFeatures, MXFP4_BLOCK), constantBytes: 0 };
  }
}

/** Whether `format` stores `linear` quantized: block layers always, a router only where the library does, never the head or pooler. */
export function isQuantizedBy(linear: LinearLayer, format: WeightFormat): boolean {
  const spec = WEIGHT_FORMAT_SPECS[format];
  if (!spec.quantized) return false;
  // Routed experts are the modules repeated per expert (`{e}` in their path); shared experts and dense MLPs are not.
  if (spec.scope === 'experts') return linear.role === 'block' && linear.module.includes('{e}');
  return linear.role === 'block' || (linear.role === 'router' && spec.quantizesRouter);
}

/** The Linear layers `format` quantizes in `model` (a tied head is never among them). */
export function quantizedLayers(model: ModelConfig, format: WeightFormat): LinearLayer[] {
  return linearLayers(model).filter((linear) => !isHeadTied(model, linear) && isQuantizedBy(linear, format));
}

/** A whole model's weights in one format. */
export interface WeightFormatBytes {
  /** All weight bytes: quantized layers as stored plus every other parameter at `keptBytes` each. */
  bytes: number;
  /** Weight elements stored quantized (biases excluded). */
  quantizedParams: number;
  /** Parameters left in floating point: embeddings, head, norms, biases (and everything, for fp formats). */
  keptParams: number;
  /** Bytes of per-tensor constants inside `bytes` (code tables, offsets). */
  constantBytes: number;
}

/** Options of `weightFormatBytes`. */
export interface WeightFormatOptions {
  /** Bytes per kept parameter; defaults to the format's `keptBytes` (2), 4 after `prepare_model_for_kbit_training` upcasts them. */
  keptBytes?: number;
}

/** Sum the stored bytes of `linears` (each times `copiesOf` it) and add `totalParams − quantized` kept parameters. */
function sumFormatBytes(
  linears: readonly LinearLayer[],
  copiesOf: (linear: LinearLayer) => number,
  totalParams: number,
  format: WeightFormat,
  keptBytes: number,
): WeightFormatBytes {
  let quantizedParams = 0;
  let quantizedBytes = 0;
  let constantBytes = 0;
  for (const linear of linears) {
    const stored = linearWeightBytes(linear.inFeatures, linear.outFeatures, format);
    const copies = copiesOf(linear);
    quantizedParams += linearWeightParams(linear) * copies;
    quantizedBytes += stored.bytes * copies;
    constantBytes += stored.constantBytes * copies;
  }
  const keptParams = totalParams - quantizedParams;
  return { bytes: quantizedBytes + keptParams * keptBytes, quantizedParams, keptParams, constantBytes };
}

/**
 * Bytes of every weight of `model` stored as `format`, whole model. Parameter totals come from `countParams`,
 * so kept + quantized = total. Divide by tensor-parallel degree yourself; for pipeline stages use `weightFormatBytesPerLayer`.
 */
export function weightFormatBytes(
  model: ModelConfig,
  format: WeightFormat,
  options: WeightFormatOptions = {},
): WeightFormatBytes {
  const keptBytes = options.keptBytes ?? WEIGHT_FORMAT_SPECS[format].keptBytes;
  const bytes = sumFormatBytes(
    quantizedLayers(model, format),
    (linear) => linear.copies,
    countParams(model).total,
    format,
    keptBytes,
  );
  return format === 'fp8-block' ? { ...bytes, bytes: bytes.bytes + fp32CorrectionBiasExtra(model, keptBytes) } : bytes;
}

/** DeepSeek-V3 keeps its router's score-correction bias in fp32 (inference/model.py Gate: `dtype=torch.float32`): the bytes above `keptBytes`. */
function fp32CorrectionBiasExtra(model: ModelConfig, keptBytes: number): number {
  if (model.moe?.correctionBias !== true) return 0;
  return (4 - keptBytes) * model.experts * (model.layers - model.moe.denseLayers);
}

/**
 * Bytes of one repeated layer (transformer block, or `mlp` hidden block) stored as `format`: its quantized Linear
 * layers plus its kept parameters (norms, biases, an unquantized router) out of `countParams().perLayer`.
 * The whole model is this × layers plus the embeddings, head, final norm and pooler.
 */
export function weightFormatBytesPerLayer(
  model: ModelConfig,
  format: WeightFormat,
  options: WeightFormatOptions = {},
): WeightFormatBytes {
  const keptBytes = options.keptBytes ?? WEIGHT_FORMAT_SPECS[format].keptBytes;
  return sumFormatBytes(
    quantizedLayers(model, format),
    (linear) => linear.perLayer,
    countParams(model).perLayer,
    format,
    keptBytes,
  );
}

/**
 * Bytes of the largest quantized weight dequantized to 16 bits: bitsandbytes' backward (autograd/_functions.py
 * MatMul4Bit.backward `F.dequantize_4bit(B, ctx.state)`, MatMul8bitLt likewise) builds it for every layer, one at a time.
 * 0 for float formats; GPTQ/AWQ kernels are not modelled here (their PEFT training paths differ by kernel).
 */
export function dequantizedWeightBytes(model: ModelConfig, format: WeightFormat): number {
  if (format === 'gptq' || format === 'awq') return 0;
  const sizes = quantizedLayers(model, format).map((linear) => 2 * linearWeightParams(linear));
  return sizes.length === 0 ? 0 : Math.max(...sizes);
}

/** Check that `format` exists for `model`'s architecture and that its packing fits every quantized layer; errors name the `weights` field. */
export function validateWeightFormat(model: ModelConfig, format: WeightFormat): FieldError[] {
  const spec = WEIGHT_FORMAT_SPECS[format];
  if (!spec.archs.includes(model.arch)) {
    return [
      ruleError('weights', { code: 'formatNotForArch', params: { format: spec.label, arch: model.arch, archs: spec.archs } }),
    ];
  }
  if (spec.scope === 'experts' && model.experts === 1)
    return [ruleError('weights', { code: 'formatWithoutExperts', params: { format: spec.label } })];
  const errors: FieldError[] = [];
  for (const linear of quantizedLayers(model, format)) {
    const { inFeatures: i, outFeatures: o } = linear;
    const bad =
      format === 'gptq'
        ? i % 32 !== 0 || o % 32 !== 0
        : format === 'awq'
          ? i % QUANT_GROUP_SIZE !== 0 || o % 8 !== 0
          : format === 'mxfp4'
            ? i % MXFP4_BLOCK !== 0
            : false;
    if (bad) {
      const widths = { format: spec.label, module: linear.module, inFeatures: i, outFeatures: o };
      errors.push(
        ruleError(
          'weights',
          format === 'gptq'
            ? { code: 'gptqPacking', params: widths }
            : format === 'mxfp4'
              ? { code: 'mxfp4Packing', params: { ...widths, block: MXFP4_BLOCK } }
              : { code: 'awqPacking', params: { ...widths, group: QUANT_GROUP_SIZE } },
        ),
      );
    }
  }
  return errors;
}
