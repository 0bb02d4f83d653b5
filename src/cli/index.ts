/**
 * The package's library: `import { estimate, plan, diagnose, diffusion } from 'gpu-memory-lab'`. Each function hands its input
 * to the command of the same name and returns what that command's `--json` prints, as an object: `JSON.stringify` of
 * `json` is the command's output line, byte for byte. Bad input is the command's one line, as `error`.
 */
import type { ArgValues, Command, CommandIo } from './command.ts';
import { diagnoseCommand, type DiagnoseJson } from './diagnose-command.ts';
import { diffusionCommand, type DiffusionJson } from './diffusion-command.ts';
import { estimateCommand, type EstimateJson } from './estimate-command.ts';
import { planCommand } from './plan-command.ts';
import type { PlanJson } from './plan-json.ts';

export type { DiagnoseJson, DiffusionJson, EstimateJson, PlanJson };
export { JSON_SCHEMA_FILES, JSON_SCHEMA_URLS } from './json-schemas.ts';

/**
 * Flags by their command-line names, without the leading `--`: `{ model: 'llama-3-8b', gpu: 'rtx-4090',
 * 'micro-batch': 4 }`. `true` is a bare flag; a repeatable flag takes a list.
 */
export type Flags = Readonly<Record<string, string | number | boolean | readonly string[]>>;

/** A command's answer: the JSON its `--json` prints, or the line it would print on stderr with exit code 2. */
export type Answer<Json> = { readonly ok: true; readonly json: Json } | { readonly ok: false; readonly error: string };

function answer<Json>(command: Command<Json>, flags: Flags, operands: readonly string[], io: CommandIo): Answer<Json> {
  const known = new Set(command.flagTables.flatMap((t) => [...t.flags.map((f) => f.flag), ...t.aliases.map((a) => a.flag)]));
  const unknown = Object.keys(flags).find((name) => !known.has(name));
  if (unknown !== undefined) return { ok: false, error: `unknown flag --${unknown}` };
  const values: ArgValues = Object.fromEntries(
    Object.entries(flags).map(([name, value]) => [
      name,
      typeof value === 'number' ? String(value) : typeof value === 'object' ? [...value] : value,
    ]),
  );
  const result = command.run(values, operands, io);
  if ('usage' in result) return { ok: false, error: result.usage };
  if ('refused' in result) return { ok: false, error: result.refused };
  return { ok: true, json: result.json() };
}

const NOTHING_TO_READ: CommandIo = {
  read: () => {
    throw new Error('estimate and plan read no input');
  },
};

/**
 * The memory engine's estimate for `flags`: what `gpu-memory-lab estimate --json` prints for the same flags.
 * @example estimate({ model: 'llama-3-8b', gpu: 'rtx-4090', precision: 'amp-bf16' }) // { ok: true, json: { fits: false, … } }
 */
export function estimate(flags: Flags): Answer<EstimateJson> {
  return answer(estimateCommand, flags, [], NOTHING_TO_READ);
}

/**
 * The OOM planner's ranked plans for `flags`: what `gpu-memory-lab plan --json` prints for the same flags.
 * @example plan({ model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': 4, seq: 512 }) // { ok: true, json: { plans: […], … } }
 */
export function plan(flags: Flags): Answer<PlanJson> {
  return answer(planCommand, flags, [], NOTHING_TO_READ);
}

/**
 * What a run printed (an nvidia-smi log, an OOM message, `memory_summary()` output, or the bytes of a
 * `_dump_snapshot()` pickle, never executed), read and explained: what `gpu-memory-lab diagnose FILE --json` prints
 * for the same `flags` (`{ gpus: 8 }`: how many GPUs the job has).
 * @example diagnose(readFileSync('oom.txt'), { gpus: 1 }) // { ok: true, json: { kind: 'oom-message', remedies: […], … } }
 */
export function diagnose(input: Uint8Array | string, flags: Flags = {}): Answer<DiagnoseJson> {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  return answer(diagnoseCommand, flags, ['-'], { read: () => bytes });
}

/**
 * The GPU memory of one generation with a diffusion transformer, from the bytes (or text) of its diffusers
 * `transformer/config.json`, never executed: what `gpu-memory-lab diffusion --config FILE --json` prints for the same
 * `flags`.
 * @example diffusion(readFileSync('transformer/config.json'), { resolution: '1280x720', frames: 81, gpu: 'rtx-4090' }) // { ok: true, json: { fits: false, … } }
 */
export function diffusion(config: Uint8Array | string, flags: Flags = {}): Answer<DiffusionJson> {
  const bytes = typeof config === 'string' ? new TextEncoder().encode(config) : config;
  return answer(diffusionCommand, { ...flags, config: '-' }, [], { read: () => bytes });
}
