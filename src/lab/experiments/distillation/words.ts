/**
 * What the page calls the distillation experiment's models, and what WebAssembly cannot show of it, in English. The
 * run (run.ts) reads these words; a translated page reads its own, typed by `DistillationWords`, so the lab itself
 * never depends on the site's languages.
 */
export const DISTILLATION_WORDS = {
  teacher: 'Teacher, fp32',
  int8Teacher: 'Teacher, int8',
  student: 'Student, fp32',
  /** Why WASM cannot show the memory difference at these sizes: said before Run and beside the results. */
  wasmCaveat:
    'On WebAssembly the only memory figure is the heap’s high-water mark, which grows in steps of megabytes — larger than these models (the teacher’s weights are 0.53 MiB). The accuracies and forward-pass times are real; the memory saving needs WebGPU.',
};

/** The distillation experiment's words, in any language. */
export type DistillationWords = typeof DISTILLATION_WORDS;
