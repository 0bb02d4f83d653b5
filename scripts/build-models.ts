/**
 * Generates every demo model into public/models/ (git-ignored): each graph's .onnx and, beside
 * it, its schedule file (src/graphs/schedule-file.ts), plus public/models/manifest.json.
 * Deterministic: no timestamps, no unseeded randomness (weights are not in the files at all;
 * the browser makes them with initWeights(parameters, seed)).
 *
 * Usage: tsx scripts/build-models.ts [--out <dir>]
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { formatMiB } from '../src/base/bytes.ts';
import { demoCatalog } from '../src/graphs/catalog.ts';
import { generateModel, generateUtility } from '../src/graphs/factory.ts';
import { buildManifest } from '../src/graphs/manifest.ts';
import { OPSET } from '../src/graphs/ops.ts';
import { buildAccumulateGraph, buildAdamGraph } from '../src/graphs/optimizer.ts';
import * as ort from 'onnxruntime-web';
import { DISTILLATION_DIR, generateDistillation } from '../src/graphs/distillation/build.ts';

const outFlag = process.argv.indexOf('--out');
const outDir = resolve(outFlag >= 0 ? (process.argv[outFlag + 1] ?? 'public/models') : 'public/models');

const started = performance.now();
await rm(outDir, { recursive: true, force: true });
const generated = demoCatalog().flatMap((demo) => demo.variants.map((v) => generateModel(demo, v)));
const adam = generateUtility('adam', buildAdamGraph());
const accumulate = generateUtility('accumulate', buildAccumulateGraph());
let totalBytes = 0;
let fileCount = 0;
for (const { files } of [...generated, { files: [adam.file, accumulate.file, adam.schedule, accumulate.schedule] }]) {
  for (const file of files) {
    const target = join(outDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.bytes);
    if (!file.path.endsWith('.onnx')) continue;
    totalBytes += file.bytes.length;
    fileCount += 1;
  }
}
const manifest = buildManifest(
  generated.map((g) => g.entry),
  { adam: adam.graph, accumulate: accumulate.graph },
  OPSET,
);
// Compact: the browser fetches this file; pretty-print it with `jq` when reading.
const manifestText = `${JSON.stringify(manifest)}\n`;
await writeFile(join(outDir, 'manifest.json'), manifestText);

// The distillation experiment's teacher is trained here, on the CPU (WebAssembly, one thread).
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
const distillation = await generateDistillation(ort);
for (const file of distillation.files) {
  const target = join(outDir, file.path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, file.bytes);
}
await writeFile(join(outDir, DISTILLATION_DIR, 'manifest.json'), `${JSON.stringify(distillation.manifest)}\n`);
const { teacher } = distillation.manifest;
console.log(
  `build-models: distillation teacher trained in ${(distillation.trainingMs / 1000).toFixed(1)} s; ` +
    `test accuracy fp32 ${(teacher.fp32.buildAccuracy * 100).toFixed(1)}%, int8 ${(teacher.int8.buildAccuracy * 100).toFixed(1)}%`,
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `build-models: ${generated.length} models, ${fileCount} .onnx files, ` +
    `${formatMiB(totalBytes)} + manifest ${formatMiB(manifestText.length)} in ${seconds} s → ${outDir}`,
);
