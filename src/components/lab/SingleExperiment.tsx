import { SINGLE_EXPERIMENTS, type SingleExperimentId } from '../../lab/experiments/single/experiments';
import { measuredBytes, runSingleExperiment, type SingleOutcome } from '../../lab/experiments/single/run';
import { bytesAbove } from '../../lab/measure/measured-memory';
import type { LabSample } from '../../lab/page/progress';
import { SIZE_FIELDS, SOFTWARE_ADAPTER_SETTINGS } from '../../lab/experiments/settings';
import { describeAgreement, formatRatio, measuredOverPredicted } from './agreement-words';
import { describeRuntimeSide, describeUncheckedRuntimeSide, gapLines, UNCHECKED_WORDS } from './runtime-words';
import ExperimentFrame from './ExperimentFrame';
import { formatMiB } from '../../base/bytes';
import MemoryTimeline from './MemoryTimeline';
import ResultsTable from './ResultsTable';
import { compareStepTimesWords, formatStepTimes } from './step-time-words';
import TransferTable from './TransferTable';

/** What the results say, in one place for translation. */
const STRINGS = {
  caption: 'Measured peak of each variant, and two predictions of it',
  note: (memoryLabel: string) =>
    `Measured: ${memoryLabel}; "weights at rest" is what was held once the weights were placed and the sessions created, before the first step — everything above it is gradients, activations and temporaries. This runtime: a model of what onnxruntime-web 1.30 and the lab hold on WebGPU for these exact graphs, from the graphs' shapes alone. PyTorch on CUDA: the memory engine's peak for the same model, what PyTorch would hold at its busiest moment (weights, gradients, activations; no CUDA context). Each ratio is measured ÷ that prediction.`,
  notModelled: 'not modelled yet',
  noteUnmeasurable:
    ' The second row has no measured ÷ predicted: its prediction is for a run this backend cannot show (see below).',
  // Step time right after the peak: on a phone the columns after the third scroll out of view.
  columns: [
    'Variant',
    'Measured peak',
    'Step time, median (range)',
    'of which weights at rest',
    'This runtime',
    'PyTorch on CUDA',
    'Loss',
  ],
  heapLabel: 'WebAssembly heap growth (coarse high-water mark)',
  buffersLabel: 'GPU buffers, peak (reserved by onnxruntime-web)',
  chartHeap: 'WebAssembly heap growth',
  chartBuffers: 'GPU buffers held',
  saving: (percent: number) => `Measured saving: ${percent}%. `,
  noSaving: 'No measured saving at these sizes. ',
  /** Where out-of-place accumulation raised the peak, as onnxruntime-web's second gradient set does at width 256. */
  accumulationRaised: (measured: string, runtime: string, secondSet: string, pytorch: string) =>
    `Here accumulation raised the peak (measured ${measured}; this runtime predicts ${runtime}): onnxruntime-web adds each micro-batch's gradients out of place, and the second gradient set (${secondSet}) costs more than the smaller micro-batch saves in activations. PyTorch adds .grad in place and would go ${pytorch}. `,
  noPyTorchSaving: (pytorch: string) =>
    `PyTorch on CUDA predicts no saving at these sizes (${pytorch}): its busiest moment is one this technique does not shrink. `,
  gapHeading: (label: string) => `${label}, this runtime against PyTorch on CUDA:`,
  /** Where a 16-bit experiment ran on WebAssembly: nothing computed in 16 bits. */
  emulatedLabel: (label: string) => `${label} model, computed in fp32`,
  emulatedGradients: (difference: string) =>
    `On WebAssembly the 16-bit model computed in fp32, so there is no 16-bit rounding to see (largest relative gradient difference ${difference}).`,
  gradients: (verdict: string, difference: string) => `${verdict} (largest relative difference ${difference}).`,
  adapter: (name: string) => ` Adapter: ${name}.`,
} as const;

/** Props of the experiment island. */
export interface SingleExperimentProps {
  /** Which experiment (also its `data-experiment` attribute). */
  readonly id: SingleExperimentId;
}

/**
 * A before/after experiment: the reader picks sizes and presses Run; the same tiny model runs
 * without and with the technique, and the page shows the measured bytes next to the memory
 * engine's prediction.
 */
export default function Experiment({ id }: SingleExperimentProps) {
  const experiment = SINGLE_EXPERIMENTS[id];
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
      needsWebGpu={experiment.needsWebGpu}
      caveat={(backend) => experiment.unmeasurable(backend) ?? (backend === 'wasm' ? (experiment.wasmShows ?? null) : null)}
      idleText="measure both variants in your browser."
      run={(settings, onProgress) => runSingleExperiment(id, settings, onProgress)}
      figures={(outcome) => ({
        backend: outcome.backend,
        measuredBeforeBytes: measuredBytes(outcome.before.result),
        measuredAfterBytes: measuredBytes(outcome.after.result),
        predictedBeforeBytes: outcome.before.predictedBytes,
        predictedAfterBytes: outcome.after.predictedBytes,
        extra: {
          // "This runtime", only for the sides it models.
          ...(outcome.before.runtime ? { runtimePredictedBeforeBytes: outcome.before.runtime.runtime.peakBytes } : {}),
          ...(outcome.after.runtime ? { runtimePredictedAfterBytes: outcome.after.runtime.runtime.peakBytes } : {}),
          // Where those are predicted with no recorded trace to check them (mixed precision).
          ...([outcome.before, outcome.after].some((side) => side.runtime && side.runtimeUnchecked)
            ? { runtimeUnchecked: 'true' }
            : {}),
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
          <SingleResults id={id} outcome={outcome} />
          {streams && <TransferTable sides={[outcome.before, outcome.after]} />}
        </>
      )}
      {...(experiment.before.loop
        ? {
            live: (samples: readonly LabSample[]) => (
              <MemoryTimeline unitLabel="live GPU buffers" xLabel="training step" dots series={seriesFromSamples(samples)} />
            ),
          }
        : {})}
    />
  );
}

/** "0.82 MiB → 0.82 MiB". */
const fromTo = (before: number, after: number): string => `${formatMiB(before)} → ${formatMiB(after)}`;

/**
 * Where accumulation raised the measured peak and "this runtime" predicts the rise from its
 * second gradient set, the sentence that teaches it; otherwise nothing.
 */
function accumulationRaisedWords(outcome: SingleOutcome): string {
  const { before, after } = outcome;
  const secondSet = after.runtime?.items.find((item) => item.cause === 'second-gradient-set')?.bytes ?? 0;
  if (!before.runtime || !after.runtime || secondSet <= 0) return '';
  const measuredRose = measuredBytes(after.result) > measuredBytes(before.result);
  const predictedRise = after.runtime.runtime.peakBytes > before.runtime.runtime.peakBytes;
  if (!measuredRose || !predictedRise) return '';
  return STRINGS.accumulationRaised(
    fromTo(measuredBytes(before.result), measuredBytes(after.result)),
    fromTo(before.runtime.runtime.peakBytes, after.runtime.runtime.peakBytes),
    formatMiB(secondSet),
    fromTo(before.predictedBytes, after.predictedBytes),
  );
}

/** Groups live samples into one series per side, for the chart drawn during a run. */
function seriesFromSamples(samples: readonly LabSample[]) {
  const labels = [...new Set(samples.map((s) => s.series))];
  return labels.map((label) => ({
    label,
    points: samples.filter((s) => s.series === label).map((s) => ({ x: s.step, bytes: s.bytes })),
  }));
}

/**
 * Whether the "after" side's technique did not run at all on this backend: a 16-bit model on
 * WebAssembly computes in fp32, so nothing on the page may read as a 16-bit run.
 */
const techniqueEmulated = (id: SingleExperimentId, outcome: SingleOutcome): boolean =>
  SINGLE_EXPERIMENTS[id].needsF16 && outcome.backend === 'wasm';

function SingleResults({ id, outcome }: { id: SingleExperimentId; outcome: SingleOutcome }) {
  const experiment = SINGLE_EXPERIMENTS[id];
  const emulated = techniqueEmulated(id, outcome);
  const sides = [
    outcome.before,
    { ...outcome.after, label: emulated ? STRINGS.emulatedLabel(outcome.after.label) : outcome.after.label },
  ];
  const kind = outcome.before.result.memory.kind;
  const [before, after] = sides.map((s) => measuredBytes(s.result)) as [number, number];
  const saving = before > 0 ? 1 - after / before : 0;
  // Where the backend cannot show the technique, the "after" prediction describes a run that did
  // not happen here: only the untouched side is compared.
  const compared = sides.map((s, i) => ({
    label: s.label,
    ratio: i > 0 && outcome.unmeasurable ? null : measuredOverPredicted(measuredBytes(s.result), s.predictedBytes),
    outOfPlaceGradients: s.outOfPlaceGradients,
  }));
  const difference = outcome.gradientDifference.toExponential(1);
  return (
    <div class="lab-results">
      <ResultsTable
        columns={STRINGS.columns}
        caption={STRINGS.caption}
        note={
          STRINGS.note(kind === 'wasm-heap' ? STRINGS.heapLabel : STRINGS.buffersLabel) +
          (outcome.unmeasurable ? STRINGS.noteUnmeasurable : '')
        }
      >
        {sides.map((s, i) => (
          <tr>
            <th scope="row">
              {s.label}
              {s.microBatches > 1 ? ` (${s.microBatches} × ${s.batch / s.microBatches})` : ` (batch ${s.batch})`}
            </th>
            <td>{formatMiB(measuredBytes(s.result))}</td>
            <td>{formatStepTimes(s.result.stepTimes)}</td>
            <td>{formatMiB(bytesAbove(s.result.memory.baselineBytes, s.result.memory.atRestBytes))}</td>
            <td data-column="runtime">
              {s.runtime
                ? `${formatMiB(s.runtime.runtime.peakBytes)} (${formatRatio(measuredBytes(s.result) / s.runtime.runtime.peakBytes)}${s.runtimeUnchecked ? `; ${UNCHECKED_WORDS}` : ''})`
                : STRINGS.notModelled}
            </td>
            <td>{`${formatMiB(s.predictedBytes)} (${formatRatio(compared[i]?.ratio ?? null)})`}</td>
            <td>{s.result.loss.toFixed(4)}</td>
          </tr>
        ))}
      </ResultsTable>
      {outcome.unmeasurable && <p class="lab-caveat">{outcome.unmeasurable}</p>}
      <p>
        {outcome.unmeasurable ? '' : saving > 0 ? STRINGS.saving(Math.round(saving * 100)) : STRINGS.noSaving}
        {accumulationRaisedWords(outcome)}
        {outcome.after.predictedBytes >= outcome.before.predictedBytes
          ? STRINGS.noPyTorchSaving(fromTo(outcome.before.predictedBytes, outcome.after.predictedBytes))
          : ''}
        {emulated
          ? STRINGS.emulatedGradients(difference)
          : STRINGS.gradients(
              outcome.gradientsPass ? experiment.gradients.passLabel : experiment.gradients.failLabel,
              difference,
            )}{' '}
        {sides.map((s) =>
          s.runtime
            ? `${(s.runtimeUnchecked ? describeUncheckedRuntimeSide : describeRuntimeSide)(s.label, measuredBytes(s.result), s.runtime, s.predictedBytes)} `
            : '',
        )}
        {describeAgreement(
          kind,
          compared.filter((_, i) => !sides[i]?.runtime),
        )}{' '}
        {compareStepTimesWords(
          { label: outcome.before.label, times: outcome.before.result.stepTimes },
          { label: outcome.after.label, times: outcome.after.result.stepTimes },
        )}
        {outcome.backend === 'webgpu' && outcome.before.result.adapter ? STRINGS.adapter(outcome.before.result.adapter) : ''}
      </p>
      {sides.map(
        (s) =>
          s.runtime && (
            <div class="lab-gap">
              <p>{STRINGS.gapHeading(s.label)}</p>
              <ul>
                {gapLines(s.runtime.items).map((line) => (
                  <li>{line}</li>
                ))}
              </ul>
            </div>
          ),
      )}
      {experiment.before.loop ? (
        <MemoryTimeline
          unitLabel={STRINGS.chartBuffers}
          xLabel="training step"
          dots
          series={sides.map((s) => ({ label: s.label, points: s.result.stepBytes.map((bytes, i) => ({ x: i + 1, bytes })) }))}
        />
      ) : (
        <MemoryTimeline
          unitLabel={kind === 'wasm-heap' ? STRINGS.chartHeap : STRINGS.chartBuffers}
          xLabel="time in the run (s)"
          series={sides.map((s) => ({
            label: s.label,
            points: s.result.memory.timeline.map((p) => ({ x: p.t / 1000, bytes: p.bytes })),
          }))}
        />
      )}
    </div>
  );
}
