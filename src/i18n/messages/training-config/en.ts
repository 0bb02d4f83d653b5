import { SETUP_ERROR_WORDS } from '../../../setup/error-words';
import { SETUP_REASONS } from '../../../setup/reasons';
import { SETUP_WORDS } from '../../../setup/words';

/** The training-config reader's words (src/components/setup/TrainingConfigReader.tsx). */
export const TRAINING_CONFIG_EN = {
  /** The reader's words around a mapping (src/setup/words.ts), as the terminal prints them. */
  setup: SETUP_WORDS,
  /** Why a key sets no option, or why a file wins a conflict (src/setup/reasons.ts), by code. */
  reasons: SETUP_REASONS,
  /** Why a file is refused (src/setup/error-words.ts), by code: the terminal's own English. */
  errors: SETUP_ERROR_WORDS,
  pasteLabel: 'Paste a training config',
  pastePlaceholder:
    'A LLaMA-Factory, axolotl, torchtune or accelerate YAML, a torchtitan TOML, a DeepSpeed or TrainingArguments JSON, or a training command line',
  fileName: 'Name it',
  add: 'Read it',
  drop: 'or drop or choose files (they stay in this browser)',
  clear: 'Clear all',
  files: 'Files read',
  mergeOrder: 'Merge order',
  /** The merge order, then what beats every file. */
  flagsWin: (order: string) => `${order}; flags you add to the command win.`,
  /** After a label that a line's text follows ("Files read: …"). */
  colon: ': ',
  /** Between the items of a list (files, keys). */
  listSeparator: ', ',
  stack: 'Stack',
  key: 'Key',
  value: 'Value',
  effect: 'Engine option',
  source: 'Rule from',
  conflict: 'Conflict',
  missing: (file: string, key: string) => `${file} names another file in ${key}: add it too, or its settings are not counted.`,
  unknown: 'Keys not known to the reader',
  ignored: 'Keys with no effect on memory',
  copyIntro: 'Estimate it:',
  copy: 'Copy',
  copied: 'Copied',
  tableCaption: 'How each key maps to the memory engine',
};
