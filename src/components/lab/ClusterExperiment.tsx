import { CLUSTER_EXPERIMENTS, type ClusterExperimentId } from '../../lab/experiments/cluster/experiments';
import {
  deviceBytes,
  NEEDS_WEBGPU,
  runClusterExperiment,
  runtimeSideBytes,
  sideBytes,
  type ClusterSideOutcome,
  type ClusterOutcome,
} from '../../lab/experiments/cluster/run';
import { bytesAbove } from '../../lab/measure/measured-memory';
import { idealBubbleFraction, measuredBubbleFraction } from '../../lab/measure/schedule';
import { SOFTWARE_ADAPTER_SETTINGS } from '../../lab/experiments/settings';
import { describeAgreement, formatRatio, measuredOverPredicted } from './agreement-words';
import { describeRuntimeSide, gapLines } from './runtime-words';
import DeviceBars from './DeviceBars';
import ExperimentFrame from './ExperimentFrame';
import { formatMiB } from '../../base/bytes';
import PipelineSchedule from './PipelineSchedule';
import ResultsTable from './ResultsTable';
import { compareStepTimesWords, formatStepTimes } from './step-time-words';

/** What the results say, in one place for translation. */
const STRINGS = {
  caption: 'Measured and predicted peak of each device',
  note: (memory: string, restExtra: string, predictedExtra: string) =>
    `Measured per device: ${memory}, at its peak; "at rest" once weights${restExtra} were placed; "between steps" after the last step. This runtime: a model of what onnxruntime-web 1.30 and the lab hold on WebGPU, each device's own loop replayed over these exact graphs from their shapes alone. PyTorch on CUDA: the memory engine's per-GPU peak for the same model${predictedExtra}, without a CUDA context. Measured ÷ PyTorch compares each side's busiest device with it. Step time: each device's median and range over its timed steps; a side steps as fast as its slowest device, which the others wait for at every exchange.`,
  heapLabel: 'WebAssembly heap growth (coarse high-water mark)',
  buffersLabel: 'GPU storage buffers reserved by onnxruntime-web',
  // Step time right after the peak: on a phone the columns after the fourth scroll out of view.
  columns: [
    'Side',
    'Device',
    'Peak',
    'Step time, median (range)',
    'At rest',
    'Between steps',
    'This runtime',
    'PyTorch on CUDA',
    'Measured ÷ PyTorch',
  ],
  /** Without WebGPU the model of onnxruntime-web's buffers (runtime-model/) does not apply. */
  notModelled: 'not modelled yet',
  gapHeading: (label: string, rank: number) => `${label}, GPU ${rank}, this runtime against PyTorch on CUDA:`,
  title: (before: string, after: string) => `${before} vs ${after}`,
  idle: 'start one virtual GPU per device, each a WebGPU device in a worker of its own.',
  device: (rank: number) => `GPU ${rank}`,
  deviceOfSide: (label: string, rank: number) => `${label}, GPU ${rank}`,
  saving: (after: string, percent: string, before: string) =>
    `The busiest device of "${after}" peaked ${percent}% below "${before}". `,
  noSaving: 'No per-device saving at these sizes. ',
  same: (compares: string, difference: string) =>
    `Both sides computed the same ${compares} (largest relative difference ${difference}).`,
  differ: (compares: string, difference: string) =>
    `The ${compares} differ between the sides (largest relative difference ${difference}).`,
  adapter: (name: string) => ` Adapter: ${name}.`,
  bubble: (measured: string, ideal: string, stages: number, microBatches: number) =>
    `Measured bubble: ${measured}% of the device time idle; with equal stage times the 1F1B schedule idles ${ideal}% ((p − 1)/(m + p − 1) with p = ${stages}, m = ${microBatches}).`,
} as const;

/** Props of the cluster experiment island. */
export interface ClusterExperimentProps {
  readonly id: ClusterExperimentId;
}

type Device = ClusterSideOutcome['devices'][number];

const slowest = (side: ClusterSideOutcome, pick: (d: Device) => number): number => Math.max(0, ...side.devices.map(pick));

/** The device whose median step is longest: the side's pace, since the others wait for it at every exchange. */
const slowestDevice = (side: ClusterSideOutcome): Device | undefined =>
  side.devices.reduce<Device | undefined>((slow, d) => (!slow || d.stepMs > slow.stepMs ? d : slow), undefined);

/**
 * A cluster experiment: each virtual GPU is a WebGPU device in a worker of its own, with
 * its own memory count; the page routes their collectives. Shows every device's bytes side by
 * side and checks that the devices together computed what one device computes.
 */
export default function ClusterExperiment({ id }: ClusterExperimentProps) {
  const experiment = CLUSTER_EXPERIMENTS[id];
  return (
    <ExperimentFrame
      id={id}
      title={STRINGS.title(experiment.before.label, experiment.after.label)}
      fields={experiment.fields}
      splits={experiment.splits}
      defaults={experiment.defaults}
      softwareDefaults={SOFTWARE_ADAPTER_SETTINGS}
      needsWebGpu={NEEDS_WEBGPU}
      idleText={STRINGS.idle}
      run={(settings, onProgress) => runClusterExperiment(id, settings, onProgress)}
      figures={(o) => ({
        backend: o.backend,
        measuredBeforeBytes: sideBytes(o.before),
        measuredAfterBytes: sideBytes(o.after),
        predictedBeforeBytes: o.before.predictedBytes,
        predictedAfterBytes: o.after.predictedBytes,
        extra: {
          // "This runtime", as the side's figure is reported: its busiest device; and per device after.
          ...runtimeFigures(o),
          devices: o.after.devices.length,
          afterDeviceBytes: o.after.devices.map(deviceBytes).join(','),
          resultsMatch: String(o.equal),
          beforeStepMs: Math.round(slowest(o.before, (d) => d.stepMs)),
          afterStepMs: Math.round(slowest(o.after, (d) => d.stepMs)),
          loadMs: Math.round(slowest(o.before, (d) => d.loadMs)),
        },
      })}
      backendOf={(o) => o.backendChoice}
      results={(o) => <ClusterResults id={id} outcome={o} />}
    />
  );
}

/** The root's "this runtime" attributes, for the sides it models. */
function runtimeFigures(outcome: ClusterOutcome): Record<string, number | string> {
  const before = runtimeSideBytes(outcome.before);
  const after = runtimeSideBytes(outcome.after);
  return {
    ...(before === null ? {} : { runtimePredictedBeforeBytes: before }),
    ...(after === null || !outcome.after.runtime
      ? {}
      : {
          runtimePredictedAfterBytes: after,
          afterDeviceRuntimeBytes: outcome.after.runtime.map((gap) => gap.runtime.peakBytes).join(','),
        }),
  };
}

/** A device's "this runtime" cell: its prediction and measured ÷ it, or "not modelled yet". */
function runtimeCell(side: ClusterSideOutcome, device: Device): string {
  const gap = side.runtime?.[device.rank];
  return gap
    ? `${formatMiB(gap.runtime.peakBytes)} (${formatRatio(deviceBytes(device) / gap.runtime.peakBytes)})`
    : STRINGS.notModelled;
}

/** Whether the two sides' slowest devices stepped at different speeds, claimed only beyond their ranges. */
function stepTimeComparison(outcome: ClusterOutcome): string {
  const before = slowestDevice(outcome.before);
  const after = slowestDevice(outcome.after);
  return before && after
    ? compareStepTimesWords(
        { label: outcome.before.label, times: before.stepTimes },
        { label: outcome.after.label, times: after.stepTimes },
      )
    : '';
}

function ClusterResults({ id, outcome }: { id: ClusterExperimentId; outcome: ClusterOutcome }) {
  const experiment = CLUSTER_EXPERIMENTS[id];
  const sides = [outcome.before, outcome.after];
  const kind = outcome.before.devices[0]?.memory.kind ?? 'webgpu-buffers';
  const compared = sides.map((s) => ({
    label: s.label,
    ratio: measuredOverPredicted(sideBytes(s), s.predictedBytes),
    outOfPlaceGradients: s.outOfPlaceGradients,
  }));
  const saving = 1 - sideBytes(outcome.after) / Math.max(1, sideBytes(outcome.before));
  const spans = outcome.after.devices.flatMap((d) => d.spans);
  const stages = outcome.after.devices.length;
  const microBatches = spans.filter((s) => s.rank === 0 && s.kind === 'forward').length;
  return (
    <div class="lab-results">
      <ResultsTable
        columns={STRINGS.columns}
        caption={STRINGS.caption}
        note={STRINGS.note(
          kind === 'wasm-heap' ? STRINGS.heapLabel : STRINGS.buffersLabel,
          id === 'zero-sharding' ? ' and Adam moments' : '',
          id === 'pipeline-parallel' ? ' (the first stage, the larger one)' : '',
        )}
      >
        {sides.flatMap((side, i) =>
          side.devices.map((d) => (
            <tr>
              <th scope="row">{side.label}</th>
              <td>{STRINGS.device(d.rank)}</td>
              <td>{formatMiB(deviceBytes(d))}</td>
              <td data-column="step">{formatStepTimes(d.stepTimes)}</td>
              <td>{formatMiB(bytesAbove(d.memory.baselineBytes, d.memory.atRestBytes))}</td>
              <td>{formatMiB(bytesAbove(d.memory.baselineBytes, d.memory.heldBytes))}</td>
              <td data-column="runtime">{runtimeCell(side, d)}</td>
              <td>{formatMiB(side.predictedBytes)}</td>
              <td>{deviceBytes(d) === sideBytes(side) ? formatRatio(compared[i]?.ratio ?? null) : ''}</td>
            </tr>
          )),
        )}
      </ResultsTable>
      <p>
        {saving > 0 ? STRINGS.saving(outcome.after.label, (saving * 100).toFixed(0), outcome.before.label) : STRINGS.noSaving}
        {(outcome.equal ? STRINGS.same : STRINGS.differ)(experiment.compares, outcome.difference.toExponential(1))}
        {sides.flatMap((side) =>
          side.devices.map((d) => {
            const gap = side.runtime?.[d.rank];
            return gap
              ? ` ${describeRuntimeSide(STRINGS.deviceOfSide(side.label, d.rank), deviceBytes(d), gap, side.predictedBytes)}`
              : '';
          }),
        )}
        {` ${describeAgreement(
          kind,
          compared.filter((_, i) => !sides[i]?.runtime),
        )}`}
        {` ${stepTimeComparison(outcome)}`}
        {outcome.backend === 'webgpu' && outcome.before.devices[0]?.adapter
          ? STRINGS.adapter(outcome.before.devices[0].adapter)
          : ''}
      </p>
      {sides.flatMap((side) =>
        side.devices.map((d) => {
          const gap = side.runtime?.[d.rank];
          return (
            gap && (
              <div class="lab-gap">
                <p>{STRINGS.gapHeading(side.label, d.rank)}</p>
                <ul>
                  {gapLines(gap.items).map((line) => (
                    <li>{line}</li>
                  ))}
                </ul>
              </div>
            )
          );
        }),
      )}
      <DeviceBars
        bars={sides.flatMap((side) =>
          side.devices.map((d) => ({
            side: side.label,
            device: STRINGS.device(d.rank),
            measuredBytes: deviceBytes(d),
            predictedBytes: side.predictedBytes,
          })),
        )}
      />
      {id === 'pipeline-parallel' && spans.length > 0 && (
        <>
          <PipelineSchedule spans={spans} />
          <p>
            {STRINGS.bubble(
              (100 * measuredBubbleFraction(spans, stages)).toFixed(0),
              (100 * idealBubbleFraction(stages, microBatches)).toFixed(0),
              stages,
              microBatches,
            )}
          </p>
        </>
      )}
    </div>
  );
}
