import { EXPERIMENTS, type ExperimentId } from '../../lab/experiments/single/experiments';
import { measuredBytes, runExperiment, type ExperimentOutcome } from '../../lab/experiments/single/run-experiment';
import { agreementVerdict } from '../../lab/measure/agreement';
import { bytesAbove } from '../../lab/measure/measured-memory';
import type { LabSample } from '../../lab/progress';
import { SIZE_FIELDS, SOFTWARE_ADAPTER_SETTINGS } from '../../lab/settings';
import ExperimentFrame from './ExperimentFrame';
import { MiB } from './format';
import MemoryTimeline from './MemoryTimeline';
import TransferTable from './TransferTable';

/** Props of the experiment island. */
export interface ExperimentProps {
  /** Which experiment (also its `data-experiment` attribute). */
  readonly id: ExperimentId;
}

/**
 * A before/after experiment: the reader picks sizes and presses Run; the same tiny model runs
 * without and with the technique, and the page shows the measured bytes next to the memory
 * engine's prediction.
 */
export default function Experiment({ id }: ExperimentProps) {
  const experiment = EXPERIMENTS[id];
  const streams = experiment.after.weights === 'streamed';
  return (
    <ExperimentFrame
      id={id}
      title={`${experiment.before.label} vs ${experiment.after.label}`}
      fields={experiment.accumulate ? [...SIZE_FIELDS, 'microBatches'] : SIZE_FIELDS}
      splits={experiment.accumulate ? ['microBatches'] : []}
      {...(experiment.defaults ? { defaults: experiment.defaults } : {})}
      softwareDefaults={experiment.softwareDefaults ?? SOFTWARE_ADAPTER_SETTINGS}
      needsF16={experiment.needsF16}
      idleText="measure both variants in your browser."
      run={(settings, onProgress) => runExperiment(id, settings, onProgress)}
      figures={(outcome) => ({
        backend: outcome.backend,
        measuredBeforeBytes: measuredBytes(outcome.before.result),
        measuredAfterBytes: measuredBytes(outcome.after.result),
        predictedBeforeBytes: outcome.before.predictedBytes,
        predictedAfterBytes: outcome.after.predictedBytes,
        extra: {
          gradientsMatch: String(outcome.gradientsPass),
          savingMeasurable: String(outcome.unmeasurable === null),
          // Timings for `npm run bench` (milliseconds).
          beforeStepMs: Math.round(outcome.before.result.stepMs),
          afterStepMs: Math.round(outcome.after.result.stepMs),
          loadMs: Math.round(outcome.before.result.loadMs),
          // The traffic of a streamed side (bytes and milliseconds of its timed step).
          ...(streams
            ? {
                afterUploadedBytes: outcome.after.result.transfer.uploadedBytes,
                afterUploadMs: Math.round(outcome.after.result.transfer.uploadMs),
                afterDownloadedBytes: outcome.after.result.transfer.downloadedBytes,
              }
            : {}),
        },
      })}
      summary={(outcome) => outcome.backendReason}
      results={(outcome) => (
        <>
          <Results outcome={outcome} tolerance={experiment.gradients} loop={Boolean(experiment.before.loop)} />
          {streams && <TransferTable sides={[outcome.before, outcome.after]} />}
        </>
      )}
      {...(experiment.before.loop ? { live: (samples: readonly LabSample[]) => <MemoryTimeline unitLabel="live GPU buffers" xLabel="training step" dots series={seriesFromSamples(samples)} /> } : {})}
    />
  );
}

/** Groups live samples into one series per variant, for the chart drawn during a run. */
function seriesFromSamples(samples: readonly LabSample[]) {
  const labels = [...new Set(samples.map((s) => s.series))];
  return labels.map((label) => ({ label, points: samples.filter((s) => s.series === label).map((s) => ({ x: s.step, bytes: s.bytes })) }));
}

function Results({ outcome, tolerance, loop }: { outcome: ExperimentOutcome; tolerance: (typeof EXPERIMENTS)[ExperimentId]['gradients']; loop: boolean }) {
  const sides = [outcome.before, outcome.after];
  const memoryLabel = outcome.before.result.memory.kind === 'wasm-heap' ? 'WebAssembly heap growth (coarse high-water mark)' : 'GPU buffers, peak (reserved by onnxruntime-web)';
  const [before, after] = sides.map((s) => measuredBytes(s.result)) as [number, number];
  const saving = before > 0 ? 1 - after / before : 0;
  const kind = outcome.before.result.memory.kind;
  const verdict = agreementVerdict(kind, sides.map((s) => [measuredBytes(s.result), s.predictedBytes] as const));
  return (
    <div class="lab-results">
      <table class="widget-table">
        <caption>
          Measured: {memoryLabel}; "weights at rest" is what was held once the weights were placed and the sessions created, before the
          first step — everything above it is gradients, activations and temporaries. Predicted: the memory engine for the same model
          (weights, gradients, activations; no CUDA context).
        </caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">Measured peak</th>
            <th scope="col">of which weights at rest</th>
            <th scope="col">Predicted</th>
            <th scope="col">Step time</th>
            <th scope="col">Loss</th>
          </tr>
        </thead>
        <tbody>
          {sides.map((s) => (
            <tr>
              <th scope="row">
                {s.label}
                {s.microBatches > 1 ? ` (${s.microBatches} × ${s.batch / s.microBatches})` : ` (batch ${s.batch})`}
              </th>
              <td>{MiB(measuredBytes(s.result))}</td>
              <td>{MiB(bytesAbove(s.result.memory.baselineBytes, s.result.memory.atRestBytes))}</td>
              <td>{MiB(s.predictedBytes)}</td>
              <td>{(s.result.stepMs / 1000).toFixed(2)} s</td>
              <td>{s.result.loss.toFixed(4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {outcome.unmeasurable && <p class="lab-caveat">{outcome.unmeasurable}</p>}
      <p>
        {saving > 0 ? `Measured saving: ${(saving * 100).toFixed(0)}%. ` : 'No measured saving at these sizes. '}
        {outcome.gradientsPass ? tolerance.passLabel : tolerance.failLabel} (largest relative difference {outcome.gradientDifference.toExponential(1)}).
        {` ${verdict.sentence}`}
        {outcome.backend === 'webgpu' && outcome.before.result.adapter ? ` Adapter: ${outcome.before.result.adapter}.` : ''}
      </p>
      {loop ? (
        <MemoryTimeline
          unitLabel="GPU buffers held"
          xLabel="training step"
          dots
          series={sides.map((s) => ({ label: s.label, points: s.result.stepBytes.map((bytes, i) => ({ x: i + 1, bytes })) }))}
        />
      ) : (
        <MemoryTimeline
          unitLabel={outcome.before.result.memory.kind === 'wasm-heap' ? 'WASM heap' : 'live GPU buffers'}
          xLabel="time in the run (s)"
          series={sides.map((s) => ({ label: s.label, points: s.result.memory.timeline.map((p) => ({ x: p.t / 1000, bytes: p.bytes })) }))}
        />
      )}
    </div>
  );
}
