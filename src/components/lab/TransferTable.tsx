import type { SingleSideOutcome } from '../../lab/experiments/single/run';
import { formatMiB } from '../../base/bytes';
import ResultsTable from './ResultsTable';
import { formatStepTimes, stepRatioWords } from './step-time-words';
import { useMessages } from '../../i18n/use-messages';

/**
 * What moving weights costs, per side: the host↔GPU bytes of the timed step, the time spent
 * handing uploads to the GPU, and the step time against the first (resident) side, as a ratio only beyond the noise. Shown
 * under the results of experiments that stream weights, so the transfer is visible next to the
 * memory it saves. `sides` carry the names the page gives them.
 */
export default function TransferTable({ sides }: { sides: readonly SingleSideOutcome[] }) {
  const messages = useMessages().lab;
  const words = messages.transfer;
  const reference = sides[0]?.result.stepTimes;
  return (
    <ResultsTable columns={words.columns} caption={words.caption} note={words.note} class="lab-transfer">
      {sides.map(({ label, result }) => (
        <tr>
          <th scope="row">{label}</th>
          <td>{formatMiB(result.transfer.uploadedBytes)}</td>
          <td>{words.milliseconds(result.transfer.uploadMs)}</td>
          <td>{formatMiB(result.transfer.downloadedBytes)}</td>
          <td>
            {formatStepTimes(result.stepTimes, messages.stepTime)}
            {result !== sides[0]?.result && reference ? stepRatioWords(result.stepTimes, reference, messages.stepTime) : ''}
          </td>
        </tr>
      ))}
    </ResultsTable>
  );
}
