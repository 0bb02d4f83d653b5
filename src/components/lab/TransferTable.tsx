import type { SingleSideOutcome } from '../../lab/experiments/single/run';
import { formatMiB } from '../../base/bytes';
import ResultsTable from './ResultsTable';
import { formatStepTimes, stepRatioWords } from './step-time-words';

/** What the table says, in one place for translation. */
const STRINGS = {
  caption: 'Host↔GPU traffic of the timed step',
  note: 'Upload time is what the worker spent creating buffers and handing them the weights; the copies then run on the GPU’s queue ahead of the kernels that read them, so their full cost shows in the step time. Resident weights were uploaded once, before the first step.',
  columns: ['Variant', 'Weights uploaded per step', 'Upload time', 'Gradients read back per step', 'Step time, median (range)'],
} as const;

/**
 * What moving weights costs, per side: the host↔GPU bytes of the timed step, the time spent
 * handing uploads to the GPU, and the step time against the first (resident) side, as a ratio only beyond the noise. Shown
 * under the results of experiments that stream weights, so the transfer is visible next to the
 * memory it saves.
 */
export default function TransferTable({ sides }: { sides: readonly SingleSideOutcome[] }) {
  const reference = sides[0]?.result.stepTimes;
  return (
    <ResultsTable columns={STRINGS.columns} caption={STRINGS.caption} note={STRINGS.note} class="lab-transfer">
      {sides.map(({ label, result }) => (
        <tr>
          <th scope="row">{label}</th>
          <td>{formatMiB(result.transfer.uploadedBytes)}</td>
          <td>{result.transfer.uploadMs.toFixed(1)} ms</td>
          <td>{formatMiB(result.transfer.downloadedBytes)}</td>
          <td>
            {formatStepTimes(result.stepTimes)}
            {result !== sides[0]?.result && reference ? stepRatioWords(result.stepTimes, reference) : ''}
          </td>
        </tr>
      ))}
    </ResultsTable>
  );
}
