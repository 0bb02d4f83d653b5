import { CLUSTER_EXPERIMENTS, type ClusterExperimentId } from '../../lab/experiments/cluster/experiments';
import {
  deviceBytes,
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
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import type { LabMessages } from '../../i18n/messages/lab/en';

/** Props of the cluster experiment island. */
export interface ClusterExperimentProps {
  readonly id: ClusterExperimentId;
  /** The page's language (given to every island of a translated page by remark-island-locale.ts). */
  readonly locale?: Locale;
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
export default function ClusterExperiment({ id, locale = DEFAULT_LOCALE }: ClusterExperimentProps) {
  return (
    <LocaleContext.Provider value={locale}>
      <Cluster id={id} />
    </LocaleContext.Provider>
  );
}

/** A cluster outcome with its sides named in the page's language. */
function named(outcome: ClusterOutcome, words: LabMessages['cluster'], id: ClusterExperimentId): ClusterOutcome {
  const names = words.experiments.sides[id];
  return { ...outcome, before: { ...outcome.before, label: names.before }, after: { ...outcome.after, label: names.after } };
}

function Cluster({ id }: { readonly id: ClusterExperimentId }) {
  const experiment = CLUSTER_EXPERIMENTS[id];
  const words = useMessages().lab.cluster;
  const names = words.experiments.sides[id];
  return (
    <ExperimentFrame
      id={id}
      title={words.title(names.before, names.after)}
      fields={experiment.fields}
      splits={experiment.splits}
      defaults={experiment.defaults}
      softwareDefaults={SOFTWARE_ADAPTER_SETTINGS}
      needsWebGpu={words.experiments.needsWebGpu}
      idleText={words.idle}
      run={(settings, onProgress) => runClusterExperiment(id, settings, onProgress)}
      sideName={(side) => (side === 'before' ? names.before : names.after)}
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
      results={(o) => <ClusterResults id={id} outcome={named(o, words, id)} />}
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
function runtimeCell(side: ClusterSideOutcome, device: Device, notModelled: string): string {
  const gap = side.runtime?.[device.rank];
  return gap ? `${formatMiB(gap.runtime.peakBytes)} (${formatRatio(deviceBytes(device) / gap.runtime.peakBytes)})` : notModelled;
}

/** Whether the two sides' slowest devices stepped at different speeds, claimed only beyond their ranges. */
function stepTimeComparison(outcome: ClusterOutcome, words: LabMessages['stepTime']): string {
  const before = slowestDevice(outcome.before);
  const after = slowestDevice(outcome.after);
  return before && after
    ? compareStepTimesWords(
        { label: outcome.before.label, times: before.stepTimes },
        { label: outcome.after.label, times: after.stepTimes },
        words,
      )
    : '';
}

function ClusterResults({ id, outcome }: { id: ClusterExperimentId; outcome: ClusterOutcome }) {
  const messages = useMessages().lab;
  const words = messages.cluster;
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
        columns={words.columns}
        caption={words.caption}
        note={words.note(
          kind === 'wasm-heap' ? words.heapLabel : words.buffersLabel,
          id === 'zero-sharding' ? words.restExtraAdam : '',
          id === 'pipeline-parallel' ? words.predictedExtraPipeline : '',
        )}
      >
        {sides.flatMap((side, i) =>
          side.devices.map((d) => (
            <tr>
              <th scope="row">{side.label}</th>
              <td>{words.device(d.rank)}</td>
              <td>{formatMiB(deviceBytes(d))}</td>
              <td data-column="step">{formatStepTimes(d.stepTimes, messages.stepTime)}</td>
              <td>{formatMiB(bytesAbove(d.memory.baselineBytes, d.memory.atRestBytes))}</td>
              <td>{formatMiB(bytesAbove(d.memory.baselineBytes, d.memory.heldBytes))}</td>
              <td data-column="runtime">{runtimeCell(side, d, words.notModelled)}</td>
              <td>{formatMiB(side.predictedBytes)}</td>
              <td>{deviceBytes(d) === sideBytes(side) ? formatRatio(compared[i]?.ratio ?? null) : ''}</td>
            </tr>
          )),
        )}
      </ResultsTable>
      <p>
        {saving > 0 ? words.saving(outcome.after.label, (saving * 100).toFixed(0), outcome.before.label) : words.noSaving}
        {(outcome.equal ? words.same : words.differ)(words.compares[experiment.compares], outcome.difference.toExponential(1))}
        {sides.flatMap((side) =>
          side.devices.map((d) => {
            const gap = side.runtime?.[d.rank];
            return gap
              ? ` ${describeRuntimeSide(words.deviceOfSide(side.label, d.rank), deviceBytes(d), gap, side.predictedBytes, messages.runtime)}`
              : '';
          }),
        )}
        {` ${describeAgreement(
          kind,
          compared.filter((_, i) => !sides[i]?.runtime),
          messages.agreement,
        )}`}
        {` ${stepTimeComparison(outcome, messages.stepTime)}`}
        {outcome.backend === 'webgpu' && outcome.before.devices[0]?.adapter
          ? words.adapter(outcome.before.devices[0].adapter)
          : ''}
      </p>
      {sides.flatMap((side) =>
        side.devices.map((d) => {
          const gap = side.runtime?.[d.rank];
          return (
            gap && (
              <div class="lab-gap">
                <p>{words.gapHeading(side.label, d.rank)}</p>
                <ul>
                  {gapLines(gap.items, messages.runtime).map((line) => (
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
            device: words.device(d.rank),
            measuredBytes: deviceBytes(d),
            predictedBytes: side.predictedBytes,
          })),
        )}
      />
      {id === 'pipeline-parallel' && spans.length > 0 && (
        <>
          <PipelineSchedule spans={spans} />
          <p>
            {words.bubble(
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
