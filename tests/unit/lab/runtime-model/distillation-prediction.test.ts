import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DistillationManifest } from '../../../../src/graphs/browser-safe.ts';
import { predictDistillationJob } from '../../../../src/lab/experiments/distillation/runtime-prediction.ts';
import type { DistillationJob } from '../../../../src/lab/measure/distillation.ts';
import { loadLabSchedule } from './lab-graphs.ts';
import { traces } from './recorded-traces.ts';

/** The distillation manifest the page reads (public/models/distillation/manifest.json). */
const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../../public/models/distillation/manifest.json'), 'utf8'),
) as DistillationManifest;

/** The root attribute holding each job's measured forward-pass peak (DistillationExperiment.tsx). */
const MEASURED_ATTRIBUTE: Readonly<Record<DistillationJob, string>> = {
  'teacher-fp32': 'measuredBeforeBytes',
  student: 'measuredAfterBytes',
  'teacher-int8': 'measuredInt8Bytes',
};

/** A job's measured peak in the trace recorded at the experiment's batch, or at `batch` if given. */
function measuredPeak(job: DistillationJob, batch?: number): number {
  const trace = traces.find((t) => t.experiment === 'distillation' && t.batch === batch);
  const bytes = Number(trace?.data[MEASURED_ATTRIBUTE[job]]);
  if (!Number.isFinite(bytes)) throw new Error(`no measured ${job} bytes in the distillation trace`);
  return bytes;
}

describe('"this runtime" for the distillation experiment against its recorded WebGPU traces (onnxruntime-web 1.30.0)', () => {
  const jobs: readonly DistillationJob[] = ['teacher-fp32', 'teacher-int8', 'student'];

  it.each(jobs)('%s at the measured batch (64): measured within 10 percent of the prediction', async (job) => {
    const predicted = await predictDistillationJob(manifest, job, manifest.measuredBatch, loadLabSchedule);
    const ratio = measuredPeak(job) / predicted;
    expect(ratio).toBeGreaterThanOrEqual(0.9);
    expect(ratio).toBeLessThanOrEqual(1.1);
  });

  it.each(jobs)('%s at batch 512: measured within 10 percent of the prediction', async (job) => {
    const predicted = await predictDistillationJob(manifest, job, 512, loadLabSchedule);
    const ratio = measuredPeak(job, 512) / predicted;
    expect(ratio).toBeGreaterThanOrEqual(0.9);
    expect(ratio).toBeLessThanOrEqual(1.1);
  });

  it('the int8 teacher holds less at rest but its DequantizeLinear copies add fp32 weight buffers while it runs', async () => {
    const int8 = await predictDistillationJob(manifest, 'teacher-int8', manifest.measuredBatch, loadLabSchedule);
    const fp32 = await predictDistillationJob(manifest, 'teacher-fp32', manifest.measuredBatch, loadLabSchedule);
    // The int8 file's weights are a quarter of the fp32 file's; its peak is far more than a quarter.
    expect(int8).toBeLessThan(fp32);
    expect(int8).toBeGreaterThan(fp32 / 2);
  });
});
