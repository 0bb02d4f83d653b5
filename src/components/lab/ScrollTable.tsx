import type { ComponentChildren } from 'preact';

/** Props of a results table that may be wider than its widget. */
export interface ScrollTableProps {
  /** The table's name, short: its caption and the scroll region's label. */
  readonly caption: string;
  /** What the columns mean, shown under the table at the widget's width (never inside the scroll). */
  readonly note?: ComponentChildren;
  /** More classes for the `<table>`, e.g. `lab-transfer`. */
  readonly class?: string;
  /** `<thead>` and `<tbody>`. */
  readonly children: ComponentChildren;
}

/**
 * A results table that keeps every column on a narrow screen: it scrolls sideways inside the
 * widget, with a shadow on each edge that has more to see, and is focusable so a keyboard can
 * scroll it (axe `scrollable-region-focusable`). The long explanation sits under it, wrapped
 * to the widget's width, so no sentence is cut off by the scroll box.
 */
export default function ScrollTable({ caption, note, class: extraClass, children }: ScrollTableProps) {
  return (
    <>
      <div class="widget-scroll scroll-shadows" tabIndex={0} role="region" aria-label={caption}>
        <table class={extraClass ? `widget-table ${extraClass}` : 'widget-table'}>
          <caption>{caption}</caption>
          {children}
        </table>
      </div>
      {note && <p class="widget-table-note">{note}</p>}
    </>
  );
}
