import type { ComponentChildren } from 'preact';

/** A labelled control with its error next to it (widget.css `.widget-field`): the field every widget's form is made of. */
export default function WidgetField({
  label,
  error,
  children,
}: {
  label: ComponentChildren;
  error?: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <label class="widget-field">
      <span>{label}</span>
      {children}
      {error && (
        <span class="widget-error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
