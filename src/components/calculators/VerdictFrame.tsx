import type { ComponentChildren } from 'preact';

/**
 * A calculator's answer box, shared by every calculator: the fit sentence first, dimmed under a note while a bad field
 * keeps the last valid result on screen; `data-fits` says fits, does not, or unknown (no GPU picked).
 */
export default function VerdictFrame({
  fits,
  stale,
  staleNote,
  answer,
  children,
}: {
  fits: boolean | null;
  stale: boolean;
  staleNote: string;
  answer: string;
  children: ComponentChildren;
}) {
  return (
    <div
      class={`calc-verdict${stale ? ' calc-stale' : ''}`}
      data-fits={fits === null ? 'unknown' : String(fits)}
      aria-live="polite"
    >
      {stale && <p class="calc-note">{staleNote}</p>}
      <p class="calc-answer">{answer}</p>
      {children}
    </div>
  );
}
