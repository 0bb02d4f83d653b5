import type { ComponentChildren } from 'preact';

/** Props of a lab results table. */
export interface ResultsTableProps {
  /** The table's name, short: its caption and the scroll region's label. */
  readonly caption: string;
  /** The column headings, left to right. */
  readonly columns: readonly string[];
  /** What the columns mean, shown under the table at the widget's width (never inside the scroll). */
  readonly note?: ComponentChildren;
  /** More classes for the `<table>`, e.g. `lab-transfer`. */
  readonly class?: string;
  /** The body's rows (`<tr>`), each starting with its `<th scope="row">`. */
  readonly children: ComponentChildren;
}

/**
 * A table of an experiment's results, with one heading row from `columns`. It keeps every
 * column on a narrow screen: it scrolls sideways inside the widget, with a shadow on each edge
 * that has more to see, and is focusable so a keyboard can scroll it (axe
 * `scrollable-region-focusable`). The long explanation sits under it, wrapped to the widget's
 * width, so no sentence is cut off by the scroll box.
 */
export default function ResultsTable({ caption, columns, note, class: extraClass, children }: ResultsTableProps) {
  return (
    <>
      <div class="widget-scroll scroll-shadows" tabIndex={0} role="region" aria-label={caption}>
        <table class={extraClass ? `widget-table ${extraClass}` : 'widget-table'}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th scope="col">{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
      {note && <p class="widget-table-note">{note}</p>}
    </>
  );
}
