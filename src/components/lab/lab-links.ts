/** The page that explains every experiment's columns, rules and words: the one link under each experiment (English path). */
export const LAB_METHOD_HREF = '/lab/how-the-lab-measures/';

/** Its section on what WebAssembly can and cannot show, linked where an experiment runs (or cannot run) without WebGPU. */
export const WASM_SECTION_HREF = `${LAB_METHOD_HREF}#webgpu-and-webassembly`;
