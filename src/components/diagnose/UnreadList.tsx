import { wordUnreadReason, type UnreadNote } from '../../diagnose/notes';
import { useMessages } from '../../i18n/use-messages';

/** What a parser skipped, so the reader knows what the result does not include. */
export default function UnreadList({ notes, title }: { notes: UnreadNote[]; title: string }) {
  const S = useMessages().diagnose.input;
  if (notes.length === 0) return null;
  return (
    <details class="diag-note" data-unread={notes.length}>
      <summary>{S.counted(title, notes.length)}</summary>
      <ul>
        {notes.map((n) => (
          <li>
            {n.line > 0 ? S.unreadLine(n.line) : ''}
            {wordUnreadReason(n.reason, S.unreadReasons)}
          </li>
        ))}
      </ul>
    </details>
  );
}
