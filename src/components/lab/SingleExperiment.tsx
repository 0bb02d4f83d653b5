import { SINGLE_EXPERIMENTS, type SingleExperimentId } from '../../lab/experiments/single/experiments';
import { measuredBytes, runSingleExperiment, type SingleOutcome } from '../../lab/experiments/single/run';
import { bytesAbove } from '../../lab/measure/measured-memory';
import type { LabSample, ProgressSide } from '../../lab/page/progress';
import { SIZE_FIELDS, SOFTWARE_ADAPTER_SETTINGS } from '../../lab/experiments/settings';
import { describeAgreement, formatRatio, measuredOverPredicted } from './agreement-words';
import { describeRuntimeSide, describeUncheckedRuntimeSide, gapLines } from './runtime-words';
import ExperimentFrame from './ExperimentFrame';
import { formatMiB } from '../../base/bytes';
import MemoryTimeline from './MemoryTimeline';
import ResultsTable from './ResultsTable';
import { compareStepTimesWords, formatStepTimes } from './step-time-words';
import TransferTable from './TransferTable';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import type { LabMessages } from '../../i18n/messages/lab/en';

/** Props of the experiment island. */
export interface SingleExperimentProps {
  /** Which experiment (also its `data-experiment` attribute). */
  readonly id: SingleExperimentId;
  /** The page's language (given to every island of a translated page by remark-island-locale.ts). */
  readonly locale?: Locale;
}

/**
 * A before/after experiment: the reader picks sizes and presses Run; the same tiny model runs
 * without and with the technique, and the page shows the measured bytes next to the memory
 * engine's prediction.
 */
export default function Experiment({ id, locale = DEFAULT_LOCALE }: SingleExperimentProps) {
  return (
    <LocaleContext.Provider value={locale}>
      <SingleExperiment id={id} />
    </LocaleContext.Provider>
  );
}

function SingleExperiment({ id }: { readonly id: SingleExperimentId }) {
  const experiment = SINGLE_EXPERIMENTS[id];
  const streams = experiment.after.weights === 'streamed';
  const words = useMessages().lab.single;
  const text = words.experiments[id];
  const sideName = (side: ProgressSide): string => (side === 'before' ? text.before : text.after);
  return (
    <ExperimentFrame
      id={id}
      title={words.title(text.before, text.after)}
      fields={experiment.accumulate ? [...SIZE_FIELDS, 'microBatches'] : SIZE_FIELDS}
      splits={experiment.accumulate ? ['microBatches'] : []}
      {...(experiment.defaults ? { defaults: experiment.defaults } : {})}
      softwareDefaults={experiment.softwareDefaults ?? SOFTWARE_ADAPTER_SETTINGS}
      needsF16={experiment.needsF16}
      needsWebGpu={text.needsWebGpu ?? undefined}
      caveat={(backend) => (backend === 'wasm' ? (text.wasmUnmeasurable ?? text.wasmShows) : null)}
      idleText={words.idleText}
      run={(settings, onProgress) => runSingleExperiment(id, settings, onProgress)}
      sideName={sideName}
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
      backendOf={(outcome) => outcome.backendChoice}
      results={(outcome) => (
        <>
          <SingleResults id={id} outcome={outcome} />
          {streams && (
            <TransferTable
              sides={[
                { ...outcome.before, label: text.before },
                { ...outcome.after, label: text.after },
              ]}
            />
          )}
        </>
      )}
      {...(experiment.before.loop
        ? {
            live: (samples: readonly LabSample[]) => (
              <MemoryTimeline
                unitLabel={words.liveBuffers}
                xLabel={words.stepAxis}
                dots
                series={seriesFromSamples(samples, sideName)}
              />
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
function accumulationRaisedWords(outcome: SingleOutcome, words: LabMessages['single']): string {
  const { before, after } = outcome;
  const secondSet = after.runtime?.items.find((item) => item.cause === 'second-gradient-set')?.bytes ?? 0;
  if (!before.runtime || !after.runtime || secondSet <= 0) return '';
  const measuredRose = measuredBytes(after.result) > measuredBytes(before.result);
  const predictedRise = after.runtime.runtime.peakBytes > before.runtime.runtime.peakBytes;
  if (!measuredRose || !predictedRise) return '';
  return words.accumulationRaised(
    fromTo(measuredBytes(before.result), measuredBytes(after.result)),
    fromTo(before.runtime.runtime.peakBytes, after.runtime.runtime.peakBytes),
    formatMiB(secondSet),
    fromTo(before.predictedBytes, after.predictedBytes),
  );
}

/** Groups live samples into one series per side, for the chart drawn during a run. */
function seriesFromSamples(samples: readonly LabSample[], sideName: (side: ProgressSide) => string) {
  const sides = [...new Set(samples.map((s) => s.side))];
  return sides.map((side) => ({
    label: sideName(side),
    points: samples.filter((s) => s.side === side).map((s) => ({ x: s.step, bytes: s.bytes })),
  }));
}

/**
 * Whether the "after" side's technique did not run at all on this backend: a 16-bit model on
 * WebAssembly computes in fp32, so nothing on the page may read as a 16-bit run.
 */
const techniqueEmulated = (id: SingleExperimentId, outcome: SingleOutcome): boolean =>
  SINGLE_EXPERIMENTS[id].needsF16 && outcome.backend === 'wasm';

function SingleResults({ id, outcome }: { id: SingleExperimentId; outcome: SingleOutcome }) {
  const messages = useMessages().lab;
  const words = messages.single;
  const text = words.experiments[id];
  const experiment = SINGLE_EXPERIMENTS[id];
  const emulated = techniqueEmulated(id, outcome);
  const sides = [
    { ...outcome.before, label: text.before },
    { ...outcome.after, label: emulated ? words.emulatedLabel(text.after) : text.after },
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
        columns={words.columns}
        caption={words.caption}
        note={
          words.note(kind === 'wasm-heap' ? words.heapLabel : words.buffersLabel) +
          (outcome.unmeasurable ? words.noteUnmeasurable : '')
        }
      >
        {sides.map((s, i) => (
          <tr>
            <th scope="row">
              {s.label}
              {s.microBatches > 1 ? words.microBatches(s.microBatches, s.batch / s.microBatches) : words.batch(s.batch)}
            </th>
            <td>{formatMiB(measuredBytes(s.result))}</td>
            <td>{formatStepTimes(s.result.stepTimes, messages.stepTime)}</td>
            <td>{formatMiB(bytesAbove(s.result.memory.baselineBytes, s.result.memory.atRestBytes))}</td>
            <td data-column="runtime">
              {s.runtime
                ? `${formatMiB(s.runtime.runtime.peakBytes)} (${formatRatio(measuredBytes(s.result) / s.runtime.runtime.peakBytes)}${s.runtimeUnchecked ? `; ${messages.runtime.uncheckedWords}` : ''})`
                : words.notModelled}
            </td>
            <td>{`${formatMiB(s.predictedBytes)} (${formatRatio(compared[i]?.ratio ?? null)})`}</td>
            <td>{s.result.loss.toFixed(4)}</td>
          </tr>
        ))}
      </ResultsTable>
      {outcome.unmeasurable && <p class="lab-caveat">{text.wasmUnmeasurable ?? outcome.unmeasurable}</p>}
      <p>
        {outcome.unmeasurable ? '' : saving > 0 ? words.saving(Math.round(saving * 100)) : words.noSaving}
        {accumulationRaisedWords(outcome, words)}
        {outcome.after.predictedBytes >= outcome.before.predictedBytes
          ? words.noPyTorchSaving(fromTo(outcome.before.predictedBytes, outcome.after.predictedBytes))
          : ''}
        {emulated
          ? words.emulatedGradients(difference)
          : words.gradients(outcome.gradientsPass ? text.passLabel : text.failLabel, difference)}{' '}
        {sides.map((s) =>
          s.runtime
            ? `${(s.runtimeUnchecked ? describeUncheckedRuntimeSide : describeRuntimeSide)(s.label, measuredBytes(s.result), s.runtime, s.predictedBytes, messages.runtime)} `
            : '',
        )}
        {describeAgreement(
          kind,
          compared.filter((_, i) => !sides[i]?.runtime),
          messages.agreement,
        )}{' '}
        {compareStepTimesWords(
          { label: text.before, times: outcome.before.result.stepTimes },
          { label: text.after, times: outcome.after.result.stepTimes },
          messages.stepTime,
        )}
        {outcome.backend === 'webgpu' && outcome.before.result.adapter ? words.adapter(outcome.before.result.adapter) : ''}
      </p>
      {sides.map(
        (s) =>
          s.runtime && (
            <div class="lab-gap">
              <p>{words.gapHeading(s.label)}</p>
              <ul>
                {gapLines(s.runtime.items, messages.runtime).map((line) => (
                  <li>{line}</li>
                ))}
              </ul>
            </div>
          ),
      )}
      {experiment.before.loop ? (
        <MemoryTimeline
          unitLabel={words.chartBuffers}
          xLabel={words.stepAxis}
          dots
          series={sides.map((s) => ({ label: s.label, points: s.result.stepBytes.map((bytes, i) => ({ x: i + 1, bytes })) }))}
        />
      ) : (
        <MemoryTimeline
          unitLabel={kind === 'wasm-heap' ? words.chartHeap : words.chartBuffers}
          xLabel={words.timeAxis}
          series={sides.map((s) => ({
            label: s.label,
            points: s.result.memory.timeline.map((p) => ({ x: p.t / 1000, bytes: p.bytes })),
          }))}
        />
      )}
    </div>
  );
}
