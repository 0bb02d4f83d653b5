/** Model architecture vocabulary: the four families and their fixed traits. */

/** Architecture family. */
export type Arch = 'gpt2' | 'llama' | 'bert' | 'mlp';

/** Every architecture family, in the order the UI lists them. */
export const ARCHS: readonly Arch[] = ['gpt2', 'llama', 'bert', 'mlp'];

/**
 * A model's shape. Everything the parameter count and activation formulas need;
 * presets hold these numbers and the count is computed from them.
 */
export interface ModelConfig {
  /** Architecture family. */
  arch: Arch;
  /** Hidden size h (model width); for `mlp` also the input width. */
  hidden: number;
  /** Number of transformer layers L (for `mlp`: hidden Linear+ReLU blocks). */
  layers: number;
  /** Attention heads a (ignored by `mlp`). */
  heads: number;
  /** Key/value heads for grouped-query attention; equals `heads` for multi-head attention. */
  kvHeads: number;
  /** MLP inner width f (per expert for mixture-of-experts; ignored by `mlp`). */
  ffn: number;
  /** Vocabulary size V (for `mlp`: number of classes). */
  vocab: number;
  /** Rows of the learned position table (gpt2, bert); 0 for rotary or none. */
  positions: number;
  /** `mlp` only: input features d of an input layer Linear(d→h) + ReLU before the L hidden blocks; absent when the input is h wide. */
  inputs?: number;
  /** Whether the LM head shares the token-embedding matrix. */
  tiedEmbeddings: boolean;
  /** Experts per MoE layer; 1 for a dense MLP. */
  experts: number;
  /** Experts each token is routed to; 1 for a dense MLP. */
  topK: number;
  /** Default sequence length for estimates (the model's training context), tokens. */
  contextLength: number;
  /** Sliding-window attention span in tokens, or null for full attention. */
  slidingWindow: number | null;
}

/** Fixed traits of an architecture family. */
export interface ArchTraits {
  /** Normalisation layer. */
  norm: 'layernorm' | 'rmsnorm' | 'none';
  /** MLP kind: GELU (2 matrices), SwiGLU (3 matrices), or ReLU (the plain `mlp`). */
  mlp: 'gelu' | 'swiglu' | 'relu';
  /** Whether linear layers carry biases. */
  biases: boolean;
  /** Whether dropout is on by default during training. */
  dropout: boolean;
  /** Whether the model has a final norm before the head. */
  finalNorm: boolean;
  /** Whether the model is a transformer (has attention, sequence, heads). */
  transformer: boolean;
}

/** Traits per family; sources: GPT-2 (Radford et al. 2019), Llama 2 (arXiv 2307.09288), BERT (arXiv 1810.04805). */
export const ARCH_TRAITS: Readonly<Record<Arch, ArchTraits>> = {
  gpt2: { norm: 'layernorm', mlp: 'gelu', biases: true, dropout: true, finalNorm: true, transformer: true },
  llama: { norm: 'rmsnorm', mlp: 'swiglu', biases: false, dropout: false, finalNorm: true, transformer: true },
  bert: { norm: 'layernorm', mlp: 'gelu', biases: true, dropout: true, finalNorm: false, transformer: true },
  mlp: { norm: 'none', mlp: 'relu', biases: true, dropout: false, finalNorm: false, transformer: false },
};

/** Head dimension h / a, in elements. */
export function headDim(model: ModelConfig): number {
  return model.hidden / model.heads;
}

/** Width of the key (or value) projection, kvHeads × headDim, in elements. */
export function kvWidth(model: ModelConfig): number {
  return model.kvHeads * headDim(model);
}

/**
 * Llama's default MLP width: 2/3 · 4h rounded up to a multiple of 256
 * (Meta llama `model.py` FeedForward: `multiple_of * ceil(int(2*4h/3) / multiple_of)`).
 */
export function llamaDefaultFfn(hidden: number, multipleOf = 256): number {
  const raw = Math.floor((2 * 4 * hidden) / 3);
  return multipleOf * Math.ceil(raw / multipleOf);
}
