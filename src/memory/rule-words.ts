/**
 * Errors of rules that compare two or more fields (tp against the heads, ZeRO under an offload) as data: a rule's code
 * and its parameters, worded by one words object. The CLI prints the English words as the error's message; a page
 * words the same rule in its language from a catalogue typed by `RuleWords`.
 */
import { wordCoded, type CodedSentence, type WordsOf } from './coded-words.ts';

/** The English sentence of each rule's error, by code. */
export const RULE_WORDS = {
  tooManyGpus: (p: { gpus: number; max: number }): string =>
    `dp × tp × pp is ${p.gpus} GPUs; the engine models up to ${p.max.toLocaleString('en-US')} GPUs`,
  tpOnMlp: (): string => 'tensor parallelism is not modelled for the mlp arch; use --tp 1',
  headsByTp: (p: { heads: number; tp: number }): string => `heads (${p.heads}) must be divisible by tp (${p.tp})`,
  kvHeadsAndTp: (p: { kvHeads: number; tp: number }): string =>
    `kv-heads (${p.kvHeads}) and tp (${p.tp}) must divide one another`,
  ppBeyondLayers: (p: { pp: number; layers: number }): string => `pp (${p.pp}) cannot exceed layers (${p.layers})`,
  layersByChunks: (p: { layers: number; pp: number; ppVirtual: number }): string =>
    `layers (${p.layers}) must divide evenly into pp × pp-virtual (${p.pp} × ${p.ppVirtual}) model chunks`,
  checkpointBeyondLayers: (p: { checkpointEvery: number; layers: number }): string =>
    `checkpoint-every (${p.checkpointEvery}) cannot exceed layers (${p.layers})`,
  virtualWithoutPp: (p: { ppVirtual: number }): string =>
    `pp-virtual (${p.ppVirtual}) interleaves pipeline stages: it needs --pp 2 or more`,
  accumByPp: (p: { gradAccum: number; pp: number }): string =>
    `grad-accum (${p.gradAccum}) must be a multiple of pp (${p.pp}); interleaving runs micro-batches in groups of pp`,
  checkpointsWithoutFullRecompute: (): string =>
    'checkpoints offloads the checkpointed layer inputs, so it needs --recompute full (Unsloth use_gradient_checkpointing="unsloth"); use streamed to offload every saved activation',
  shardGroupWithoutZero3: (): string => 'shard-group shards ZeRO-3 within a group of GPUs (HSDP): it needs --zero 3',
  shardGroupByDp: (p: { shardGroup: number; dp: number }): string =>
    `shard-group (${p.shardGroup}) must divide dp (${p.dp}): each group holds one replica`,
  keepGatheredWithoutZero3: (): string => 'keep-gathered-weights keeps ZeRO-3’s gathered weights: it needs --zero 3',
  paramOffloadWithoutZero3: (): string => 'offloading parameters needs --zero 3 (ZeRO-Infinity, FSDP CPU offload)',
  offloadWithoutZero: (): string =>
    'offload needs ZeRO: --zero 1, 2 or 3 (DeepSpeed ZeRO-Offload); FSDP CPU offload is --zero 3 --offload optimizer+params',
};

/** What wording the rules' errors take: one function per code, with that code's parameters. */
export type RuleWords = WordsOf<typeof RULE_WORDS>;

/** A rule's stable code. */
export type RuleCode = keyof RuleWords;

/** A broken rule as data: its code and, where its sentence has any, its parameters. */
export type BrokenRule = CodedSentence<RuleWords>;

/** The sentence of `rule` in `words` (English by default: what the CLI prints). */
export function wordRule(rule: BrokenRule, words: RuleWords = RULE_WORDS): string {
  return wordCoded(rule, words);
}
