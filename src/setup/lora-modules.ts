/**
 * LoRA target modules as the tools name them (`q_proj`, torchtune's `output_proj`, `all-linear`) turned into the
 * engine's `--lora-targets`, and back.
 */
import { ATTENTION_TARGETS, LORA_TARGETS, type LoraTarget } from '../memory/lora.ts';

/** Hugging Face Llama-family module names (modeling_llama.py) and torchtune's (`output_proj`, `w1`/`w2`/`w3`). */
const MODULE_TARGETS: Readonly<Record<string, LoraTarget>> = {
  q_proj: 'q',
  k_proj: 'k',
  v_proj: 'v',
  o_proj: 'o',
  output_proj: 'o',
  gate_proj: 'gate',
  up_proj: 'up',
  down_proj: 'down',
  w1: 'gate',
  w3: 'up',
  w2: 'down',
};

/** Names that mean every linear layer but the output head (PEFT `all-linear`, LLaMA-Factory `all`). */
const ALL_LINEAR_NAMES = new Set(['all-linear', 'all']);

/** What a list of module names maps to: the engine's targets, and the names it cannot place. */
export interface LoraModules {
  /** `all-linear` or a comma list in the engine's order, or null when no name maps. */
  readonly targets: string | null;
  readonly unplaced: readonly string[];
}

/** Map module names to the engine's `--lora-targets`. */
export function loraTargetsOf(names: readonly string[]): LoraModules {
  if (names.some((name) => ALL_LINEAR_NAMES.has(name))) return { targets: 'all-linear', unplaced: [] };
  const placed = new Set<LoraTarget>();
  const unplaced: string[] = [];
  for (const name of names) {
    const target = MODULE_TARGETS[name];
    if (target === undefined) unplaced.push(name);
    else placed.add(target);
  }
  const ordered = LORA_TARGETS.filter((target) => placed.has(target));
  if (ordered.length === 0) return { targets: null, unplaced };
  return { targets: ordered.length === LORA_TARGETS.length ? 'all-linear' : ordered.join(','), unplaced };
}

/** Hugging Face module names of the engine's `--lora-targets` (`all-linear` stays PEFT's own shorthand). */
export function hfModuleNames(targets: string): readonly string[] {
  if (targets === 'all-linear') return ['all-linear'];
  const list = targets === 'attention' ? ATTENTION_TARGETS : targets.split(',');
  return list.map((target) => `${target}_proj`);
}
