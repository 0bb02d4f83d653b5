import { describeSummary } from '../../diagnose/explain';
import type { MemorySummary } from '../../diagnose/memory-summary';
import { useMessages } from '../../i18n/use-messages';

/** A memory_summary's figures, one row each with its value and what it means; the summary tool and the OOM tool (for a summary pasted with the message) both show it. */
export default function SummaryTable({ summary }: { summary: MemorySummary }) {
  const { summary: S, explain } = useMessages().diagnose;
  return (
    <table class="widget-table">
      <thead>
        <tr>
          <th scope="col">{S.figure}</th>
          <th scope="col">{S.value}</th>
          <th scope="col">{S.meaning}</th>
        </tr>
      </thead>
      <tbody>
        {describeSummary(summary, explain).map((r) => (
          <tr>
            <th scope="row">{r.label}</th>
            <td>{r.value}</td>
            <td>{r.meaning}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
