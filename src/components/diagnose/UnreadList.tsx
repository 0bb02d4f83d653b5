import type { UnreadNote } from '../../diagnose/notes';

/** What a parser skipped, so the reader knows what the result does not include. */
export default function UnreadList({ notes, title }: { notes: UnreadNote[]; title: string }) {
  if (notes.length === 0) return null;
  return (
    <details class="diag-note" data-unread={notes.length}>
      <summary>
        {title} ({notes.length})
      </summary>
      <ul>
        {notes.map((n) => (
          <li>
            {n.line > 0 ? `line ${n.line}: ` : ''}
            {n.message}
          </li>
        ))}
      </ul>
    </details>
  );
}
