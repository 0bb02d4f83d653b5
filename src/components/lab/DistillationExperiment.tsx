import { MEASURED_BATCH } from '../../graphs/browser-safe';
import {
  distillationCaveat,
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

/** What the results table says, in one place for translation. */
const STRINGS = {
  caption: 'Memory, time and accuracy of each model',
  note: (batch: number, memory: string) =>
    `One forward pass of ${batch} test examples. Measured: ${memory}, from before the model was loaded; "at rest" is what was held once the model was loaded, before it ran. This runtime: a model of what onnxruntime-web 1.30 holds on WebGPU for these exact graphs, from the graphs' shapes alone, with measured ÷ it. PyTorch on CUDA: the memory engine in inference mode for the same model (weights at their storage width plus the forward working set; no CUDA context), with measured ÷ it: the peak for the fp32 models; for the int8 teacher, its weights at rest against the engine's int8 weights line (its peak is explained below). Accuracy: all 2,048 held-out test examples.`,
  heapLabel: 'WebAssembly heap growth (coarse high-water mark)',
  buffersLabel: 'GPU buffers, peak (reserved by onnxruntime-web)',
  columns: [
    'Model',
    'Parameters',
    'Measured peak',
    'at rest',
    'This runtime',
    'PyTorch on CUDA',
    'Forward pass',
    'Test accuracy',
  ],
  int8Compared: "the int8 teacher's weights at rest",
  atRestRatio: (ratio: string) => `${ratio} at rest`,
  notModelled: 'not modelled off WebGPU',
  gapHeading: (label: string) => `${label}, this runtime against PyTorch on CUDA:`,
} as const;

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

/**
 * The distillation experiment: a teacher trained at build time (stored in fp32 and in int8) and
 * a student trained here, with and without soft targets. Memory and time of each forward pass
 * are measured; accuracies come from the held-out test set.
 */
export default function DistillationExperiment() {
  return (
    <ExperimentFrame
      id="distillation"
      title="teacher vs distilled student vs int8 teacher"
      fields={['batch']}
      defaults={{ batch: MEASURED_BATCH }}
      idleText="measure the teacher (fp32 and int8) and the student, and train the student twice: with soft targets and on hard labels only."
      caveat={distillationCaveat}
      run={(settings, onProgress) => runDistillation(settings.batch, onProgress)}
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

function DistillationResults({ outcome }: { outcome: DistillationOutcome }) {
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
    { label: STRINGS.int8Compared, ratio: ratios[1] ?? null },
    { label: outcome.student.label, ratio: ratios[2] ?? null },
  ].filter((_, i) => !models[i]?.runtime);
  const copies = bytesAbove(atRest(outcome.int8Teacher.result.forward), int8);
  const { distilled, hardOnly } = outcome.student.result;
  const memoryLabel = kind === 'wasm-heap' ? STRINGS.heapLabel : STRINGS.buffersLabel;
  return (
    <div class="lab-results">
      <ResultsTable columns={STRINGS.columns} caption={STRINGS.caption} note={STRINGS.note(outcome.batch, memoryLabel)}>
        {models.map((m, i) => (
          <tr>
            <th scope="row">{m.label}</th>
            <td>{m.parameterCount.toLocaleString('en-US')}</td>
            <td>{formatMiB(measuredForwardBytes(m.result))}</td>
            <td>{formatMiB(atRest(m.result.forward))}</td>
            <td data-column="runtime">
              {m.runtime
                ? `${formatMiB(m.runtime.runtime.peakBytes)} (${formatRatio(measuredForwardBytes(m.result) / m.runtime.runtime.peakBytes)})`
                : STRINGS.notModelled}
            </td>
            <td>
              {`${formatMiB(m.predictedBytes)} (${
                m === outcome.int8Teacher ? STRINGS.atRestRatio(formatRatio(ratios[i] ?? null)) : formatRatio(ratios[i] ?? null)
              })`}
            </td>
            <td>{m.result.forward.forwardMs.toFixed(1)} ms</td>
            <td>{m.result.accuracy === undefined ? '' : percent(m.result.accuracy)}</td>
          </tr>
        ))}
      </ResultsTable>
      {outcome.unmeasurable && <p class="lab-caveat">{outcome.unmeasurable}</p>}
      {!outcome.unmeasurable && (
        <p class="lab-caveat">
          At rest the int8 teacher holds {formatMiB(atRest(outcome.int8Teacher.result.forward))} against{' '}
          {formatMiB(atRest(outcome.teacher.result.forward))} in fp32. While it runs it takes {formatMiB(copies)} more than that,
          well above the prediction: onnxruntime-web executes each DequantizeLinear as a step of its own that writes an fp32 copy
          of the weight matrix for the MatMul to read, and within one run it reuses those buffers only in part. The engine assumes
          a kernel that reads the int8 weights directly, as LLM.int8() and the 4-bit GPTQ and AWQ kernels do.
        </p>
      )}
      <p>
        The student, trained here twice from the same start for the same number of steps on the same 256 labelled examples,
        reaches <strong>{percent(distilled.accuracy)}</strong> with the teacher's soft targets (α = {distilled.alpha}) and{' '}
        <strong>{percent(hardOnly.accuracy)}</strong> on the hard labels alone (training took{' '}
        {((distilled.trainMs + hardOnly.trainMs) / 1000).toFixed(1)} s for both). The teacher, which learnt from 8,192 examples,
        scores {percent(outcome.teacher.result.accuracy)}; stored in int8 it scores {percent(outcome.int8Teacher.result.accuracy)}
        .
      </p>
      <p>
        {teacher > 0
          ? `Measured: the student's forward pass holds ${percent(student / teacher)} of the teacher's; the int8 teacher's holds ${percent(int8 / teacher)}. `
          : ''}
        {models.map((m) =>
          m.runtime ? `${describeRuntimeSide(m.label, measuredForwardBytes(m.result), m.runtime, m.predictedBytes)} ` : '',
        )}
        {outcome.unmeasurable ? '' : describeAgreement(kind, compared)}
        {outcome.adapter ? ` Adapter: ${outcome.adapter}.` : ''}
      </p>
      {models.map(
        (m) =>
          m.runtime && (
            <div class="lab-gap">
              <p>{STRINGS.gapHeading(m.label)}</p>
              <ul>
                {gapLines(m.runtime.items).map((line) => (
                  <li>{line}</li>
                ))}
              </ul>
            </div>
          ),
      )}
    </div>
  );
}
