/**
 * A configuration written for the tool that will run it: the tool's own stack decides every option the file leaves
 * out, and that stack may decide otherwise than the stack the estimate was made on (the Trainer fuses AdamW where plain
 * PyTorch runs foreach; torchtune trains pure bf16 where TRL autocasts over fp32 weights). So the file carries the
 * options given, and every option the estimate's stack decided that the target's stack would decide differently;
 * what the file cannot say is listed as unexpressed, to pass as flags beside it. Reading the file back through its
 * reader, on the target's stack, with those flags, gives the same resolved options and so the same estimate.
 */
import { estimateMemory } from '../../memory/estimate.ts';
import { flagName } from '../../memory/flag-table.ts';
import type { EstimateOptions } from '../../memory/options.ts';
import { DEFAULT_STACK, stackDecidedKeysFor, type Stack, type StackDecidedKey } from '../../memory/stacks.ts';
import type { ResolvedEstimate } from '../../memory/validate.ts';
import { combineReadings } from '../combine.ts';
import { SETUP_OPTION_KEYS, type SetupOptions } from '../mapping.ts';
import { readTrainingConfig } from '../read-training-config.ts';
import { WRITE_FORMATS, type WriteFormat } from './write-formats.ts';
import type { Unexpressed, WrittenConfig } from './written-config.ts';

/** A file written so that its tool, on its own stack, reproduces the estimate. */
export interface ReproducingConfig extends WrittenConfig {
  /** The stack the tool runs the file on: the one reading it back implies, or the default when it implies none. */
  readonly targetStack: Stack;
  /** The options the file was written from: the ones given and those the target's stack would decide otherwise. */
  readonly options: EstimateOptions;
}

/**
 * Writing can change the target (an accelerate file with ZeRO-3 becomes FSDP2's), which can change what it decides;
 * each pass adds the options that still differ. Two passes settle every stack × format pair the tests run; the bound
 * only stops a cycle.
 */
const MAX_PASSES = 4;

/** What reading a written file back gives: the stack it implies, what it cannot say, and the options it resolves to. */
interface ReadBack {
  readonly stack: Stack;
  readonly unexpressed: readonly Unexpressed[];
  readonly resolved: ResolvedEstimate;
}

/**
 * Write `given` (the estimate's options, `resolved` its resolution) as `format`, with every option the estimate's
 * stack decided that the format's own stack would decide differently.
 */
export function writeReproducing(format: WriteFormat, given: EstimateOptions, resolved: ResolvedEstimate): ReproducingConfig {
  const spec = WRITE_FORMATS[format];
  const decided = stackDecidedKeysFor(resolved.finetune);
  // The stack the estimate ran on is not the target's: the file is read on the stack it implies.
  let writing: EstimateOptions = withoutStack(given);
  let check = readBack(format, writing, given, decided);
  for (let pass = 1; pass < MAX_PASSES; pass++) {
    const differing = decided.filter((key) => check.resolved[key] !== resolved[key]);
    if (differing.length === 0) break;
    // The Trainer's and the tools' optim names an optimizer and its implementation together: write both.
    if (differing.includes('optimizerImpl') && !differing.includes('optimizer')) differing.push('optimizer');
    writing = { ...writing, ...Object.fromEntries(differing.map((key) => [key, resolved[key]])) };
    check = readBack(format, writing, given, decided);
  }
  return { ...spec.write(writing), unexpressed: check.unexpressed, targetStack: check.stack, options: writing };
}

/**
 * Write `options` as `format`, read the text back through its reader, and resolve what the tool would run: the file's
 * options on the stack it implies, the options it cannot say passed beside it, the model and GPU from `given`.
 */
function readBack(
  format: WriteFormat,
  options: EstimateOptions,
  given: EstimateOptions,
  decided: readonly StackDecidedKey[],
): ReadBack {
  const spec = WRITE_FORMATS[format];
  const written = spec.readBack(options);
  const outcome = readTrainingConfig(spec.readAs, written.text);
  // A writer's text that its own reader refuses is a fault in this layer, never the reader's input.
  if (!outcome.ok) throw new Error(`${format} wrote a file its reader refuses: ${outcome.error.key}: ${outcome.error.message}`);
  const mapping = combineReadings([outcome.reading]);
  const read: SetupOptions = mapping.options;
  // Options only a stack decides (kernels, grads) have no key in any file: they travel as flags too.
  const keyless = decided
    .filter((key) => options[key] !== undefined && !(key in read) && !written.unexpressed.some((entry) => entry.option === key))
    .map((key) => ({ option: key, why: `no key in this file: pass --${flagName(key)}` }));
  const unexpressed = [...written.unexpressed, ...keyless];
  const beside = Object.fromEntries(unexpressed.map((entry) => [entry.option, options[entry.option]]));
  const stack = mapping.stack ?? DEFAULT_STACK;
  const outside = Object.fromEntries(
    Object.entries(withoutStack(given)).filter(
      ([key]) => !(SETUP_OPTION_KEYS as readonly string[]).includes(key) && !(decided as readonly string[]).includes(key),
    ),
  );
  const estimate = estimateMemory({ ...outside, ...beside, ...read, stack });
  if (!estimate.ok)
    throw new Error(`${format} read back to options the engine refuses: ${estimate.errors.map((e) => e.message).join('; ')}`);
  return { stack, unexpressed, resolved: estimate.result.resolved };
}

/** `options` without the stack they were estimated on. */
function withoutStack(options: EstimateOptions): EstimateOptions {
  return Object.fromEntries(Object.entries(options).filter(([key]) => key !== 'stack'));
}
