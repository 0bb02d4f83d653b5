import { MEASURED_BATCH } from '../../graphs/browser-safe';
import {
  measuredForwardBytes,
  runDistillation,
  type DistillationOutcome,
  type MeasuredModel,
} from '../../lab/experiments/distillation/run';
import type { ForwardMeasurement } from '../../lab/measure/distillation';
import { bytesAbove } from '../../lab/measure/measured-memory';
import { describeAgreement, formatRatio, measuredOverPredicted } from './agreement-words';
import { describeRuntimeSide, gapLines } from './runtime-words';
import ExperimentFrame from './ExperimentFrame';
import { formatMiB } from '../../base/bytes';
import ResultsTable from './ResultsTable';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';

/**
 * The distillation experiment: a teacher trained at build time (stored in fp32 and in int8) and
 * a student trained here, with and without soft targets. Memory and time of each forward pass
 * are measured; accuracies come from the held-out test set.
 */
export default function DistillationExperiment({ locale = DEFAULT_LOCALE }: { readonly locale?: Locale }) {
  return (
    <LocaleContext.Provider value={locale}>
      <Distillation />
    </LocaleContext.Provider>
  );
}

function Distillation() {
  const words = useMessages().lab.distillation;
  return (
    <ExperimentFrame
      id="distillation"
      title={words.title}
      fields={['batch']}
      defaults={{ batch: MEASURED_BATCH }}
      idleText={words.idleText}
      caveat={(backend) => (backend === 'wasm' ? words.models.wasmCaveat : null)}
      run={(settings, onProgress) => runDistillation(settings.batch, onProgress)}
      sideName={(side) => (side === 'before' || side === 'after' ? side : words.progressSides[side])}
      figures={(o) => ({
        backend: o.backend,
        measuredBeforeBytes: measuredForwardBytes(o.teacher.result),
        measuredAfterBytes: measuredForwardBytes(o.student.result),
        predictedBeforeBytes: o.teacher.predictedBytes,
        predictedAfterBytes: o.student.predictedBytes,
        extra: {
          // "This runtime", on WebGPU only (null elsewhere, and then no attribute).
          ...(o.teacher.runtime ? { runtimePredictedBeforeBytes: o.teacher.runtime.runtime.peakBytes } : {}),
          ...(o.student.runtime ? { runtimePredictedAfterBytes: o.student.runtime.runtime.peakBytes } : {}),
          ...(o.int8Teacher.runtime ? { runtimePredictedInt8Bytes: o.int8Teacher.runtime.runtime.peakBytes } : {}),
          measuredInt8Bytes: measuredForwardBytes(o.int8Teacher.result),
          predictedInt8Bytes: o.int8Teacher.predictedBytes,
          // Weights at rest (session created, nothing run yet), above the count before loading.
          atRestBeforeBytes: atRest(o.teacher.result.forward),
          atRestInt8Bytes: atRest(o.int8Teacher.result.forward),
          predictedInt8WeightBytes: o.int8Teacher.predictedWeightBytes,
          savingMeasurable: String(o.unmeasurable === null),
          teacherAccuracy: o.teacher.result.accuracy,
          int8TeacherAccuracy: o.int8Teacher.result.accuracy,
          studentDistilledAccuracy: o.student.result.distilled.accuracy,
          studentHardAccuracy: o.student.result.hardOnly.accuracy,
          // Timings for `npm run bench` (milliseconds).
          teacherForwardMs: Math.round(o.teacher.result.forward.forwardMs),
          int8ForwardMs: Math.round(o.int8Teacher.result.forward.forwardMs),
          studentForwardMs: Math.round(o.student.result.forward.forwardMs),
          studentTrainMs: Math.round(o.student.result.distilled.trainMs + o.student.result.hardOnly.trainMs),
        },
      })}
      backendOf={(o) => o.backendChoice}
      results={(o) => <DistillationResults outcome={o} />}
    />
  );
}

function atRest(forward: ForwardMeasurement): number {
  return bytesAbove(forward.baselineBytes, forward.atRestBytes);
}

function DistillationResults({ outcome: measured }: { outcome: DistillationOutcome }) {
  const messages = useMessages().lab;
  const words = messages.distillation;
  // The models as the page names them, in its language.
  const outcome: DistillationOutcome = {
    ...measured,
    teacher: { ...measured.teacher, label: words.models.teacher },
    int8Teacher: { ...measured.int8Teacher, label: words.models.int8Teacher },
    student: { ...measured.student, label: words.models.student },
  };
  const percent = words.percent;
  const models: MeasuredModel<{ forward: ForwardMeasurement; accuracy?: number }>[] = [
    outcome.teacher,
    outcome.int8Teacher,
    { ...outcome.student, result: { ...outcome.student.result, accuracy: outcome.student.result.distilled.accuracy } },
  ];
  const kind = outcome.teacher.result.forward.kind;
  const [teacher, int8, student] = models.map((m) => measuredForwardBytes(m.result)) as [number, number, number];
  // The fp32 models' peaks compare with the engine's forward pass; the int8 teacher's weights at
  // rest with the engine's int8 weights line (its peak is explained below, not predicted). The
  // WebAssembly heap grows in steps larger than these models: nothing to compare there.
  const ratio = (measured: number, predicted: number) =>
    outcome.unmeasurable ? null : measuredOverPredicted(measured, predicted);
  const ratios = [
    ratio(teacher, outcome.teacher.predictedBytes),
    ratio(atRest(outcome.int8Teacher.result.forward), outcome.int8Teacher.predictedWeightBytes),
    ratio(student, outcome.student.predictedBytes),
  ];
  // A model "this runtime" predicts is described by its itemised gap instead.
  const compared = [
    { label: outcome.teacher.label, ratio: ratios[0] ?? null },
    { label: words.int8Compared, ratio: ratios[1] ?? null },
    { label: outcome.student.label, ratio: ratios[2] ?? null },
  ].filter((_, i) => !models[i]?.runtime);
  const copies = bytesAbove(atRest(outcome.int8Teacher.result.forward), int8);
  const { distilled, hardOnly } = outcome.student.result;
  const memoryLabel = kind === 'wasm-heap' ? words.heapLabel : words.buffersLabel;
  return (
    <div class="lab-results">
      <ResultsTable columns={words.columns} caption={words.caption} note={words.note(outcome.batch, memoryLabel)}>
        {models.map((m, i) => (
          <tr>
            <th scope="row">{m.label}</th>
            <td>{words.parameters(m.parameterCount)}</td>
            <td>{formatMiB(measuredForwardBytes(m.result))}</td>
            <td>{formatMiB(atRest(m.result.forward))}</td>
            <td data-column="runtime">
              {m.runtime
                ? `${formatMiB(m.runtime.runtime.peakBytes)} (${formatRatio(measuredForwardBytes(m.result) / m.runtime.runtime.peakBytes)})`
                : words.notModelled}
            </td>
            <td>
              {`${formatMiB(m.predictedBytes)} (${
                m === outcome.int8Teacher ? words.atRestRatio(formatRatio(ratios[i] ?? null)) : formatRatio(ratios[i] ?? null)
              })`}
            </td>
            <td>{words.milliseconds(m.result.forward.forwardMs)}</td>
            <td>{m.result.accuracy === undefined ? '' : percent(m.result.accuracy)}</td>
          </tr>
        ))}
      </ResultsTable>
      {outcome.unmeasurable && <p class="lab-caveat">{words.models.wasmCaveat}</p>}
      {!outcome.unmeasurable && (
        <p class="lab-caveat">
          {words.int8Copies(
            formatMiB(atRest(outcome.int8Teacher.result.forward)),
            formatMiB(atRest(outcome.teacher.result.forward)),
            formatMiB(copies),
          )}
        </p>
      )}
      <p>
        {words.accuracies(
          <strong>{percent(distilled.accuracy)}</strong>,
          distilled.alpha,
          <strong>{percent(hardOnly.accuracy)}</strong>,
          ((distilled.trainMs + hardOnly.trainMs) / 1000).toFixed(1),
          percent(outcome.teacher.result.accuracy),
          percent(outcome.int8Teacher.result.accuracy),
        )}
      </p>
      <p>
        {teacher > 0 ? words.shares(percent(student / teacher), percent(int8 / teacher)) : ''}
        {models.map((m) =>
          m.runtime
            ? `${describeRuntimeSide(m.label, measuredForwardBytes(m.result), m.runtime, m.predictedBytes, messages.runtime)} `
            : '',
        )}
        {outcome.unmeasurable ? '' : describeAgreement(kind, compared, messages.agreement)}
        {outcome.adapter ? words.adapter(outcome.adapter) : ''}
      </p>
      {models.map(
        (m) =>
          m.runtime && (
            <div class="lab-gap">
              <p>{words.gapHeading(m.label)}</p>
              <ul>
                {gapLines(m.runtime.items, messages.runtime).map((line) => (
                  <li>{line}</li>
                ))}
              </ul>
            </div>
          ),
      )}
    </div>
  );
}
