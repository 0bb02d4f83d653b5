/** What a writer gives: the file's text, and each option the file cannot say, with where to say it instead. */
import type { StackDecidedKey } from '../../memory/stacks.ts';
import type { SetupOptionKey, SetupOptions } from '../mapping.ts';

/** Options a trainer, PEFT or the model loader sets: a launcher or DeepSpeed file has no key for them. */
export const TRAINER_SIDE_OPTIONS: readonly SetupOptionKey[] = [
  'loss',
  'optimizerInBackward',
  'loraDropout',
  'loraDtype',
  'modulesToSave',
  'dora',
  'qloraFormat',
  'qloraKept',
  'batching',
];

/** An option a tool's file has no key for: one a configuration sets, or one only a stack decides (kernels, grads). */
export interface Unexpressed {
  readonly option: SetupOptionKey | StackDecidedKey;
  /** Why, and where the reader sets it instead (the launcher, another file). */
  readonly why: string;
}

/** A written configuration file. */
export interface WrittenConfig {
  readonly text: string;
  readonly unexpressed: readonly Unexpressed[];
}

/** Collects what a writer could not express, one line per option. */
export function unexpressedList(): {
  readonly list: Unexpressed[];
  add(option: SetupOptionKey, why: string): void;
  /** Every option of `options` in `keys` the writer has no key for. */
  addEach(options: SetupOptions, keys: readonly SetupOptionKey[], why: string): void;
} {
  const list: Unexpressed[] = [];
  return {
    list,
    add: (option, why) => list.push({ option, why }),
    addEach(options, keys, why) {
      for (const option of keys) if (options[option] !== undefined) list.push({ option, why });
    },
  };
}
