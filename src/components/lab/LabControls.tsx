import type { ComponentChildren } from 'preact';
import {
  LAB_BATCH_MAX,
  LAB_BATCH_MIN,
  LAB_DEVICES,
  LAB_LAYERS,
  LAB_MICRO_BATCHES,
  LAB_WIDTHS,
  type LabField,
  type LabSettings,
  type SettingError,
} from '../../lab/experiments/settings';
import WidgetField from '../WidgetField';

/** The choice lists of the fields shown as selects. */
const SELECTS: Partial<Record<LabField, readonly number[]>> = {
  hidden: LAB_WIDTHS,
  layers: LAB_LAYERS,
  microBatches: LAB_MICRO_BATCHES,
  devices: LAB_DEVICES,
};

export interface LabControlsProps {
  readonly fields: readonly LabField[];
  readonly settings: LabSettings;
  /** What the batch box holds, as typed (it may not be a number yet). */
  readonly batchText: string;
  readonly errors: readonly SettingError[];
  /** Each field's label, in the page's language. */
  readonly labels: Readonly<Record<LabField, string>>;
  /** Whether the island has hydrated and can run: until then every control is disabled. */
  readonly ready: boolean;
  readonly running: boolean;
  readonly runLabel: string;
  readonly onChange: (settings: LabSettings, batchText: string) => void;
  readonly onRun: () => void;
}

/**
 * The size fields an experiment offers and its Run button; each error sits next to its field.
 * Everything is disabled until `ready`: server-rendered, the form would submit and reload the
 * page on Run (and a disabled default button also blocks submitting with Enter).
 */
export default function LabControls({
  fields,
  settings,
  batchText,
  errors,
  labels,
  ready,
  running,
  runLabel,
  onChange,
  onRun,
}: LabControlsProps) {
  const locked = !ready || running;
  const errorFor = (field: LabField) => errors.find((e) => e.field === field)?.message;
  const field = (name: LabField, control: ComponentChildren) => (
    <WidgetField label={labels[name]} error={errorFor(name)}>
      {control}
    </WidgetField>
  );
  return (
    <form
      class="lab-controls"
      onSubmit={(e) => {
        e.preventDefault();
        if (errors.length === 0 && !locked) onRun();
      }}
    >
      {fields.map((name) => {
        if (name === 'batch')
          return field(
            name,
            <input
              type="number"
              inputMode="numeric"
              min={LAB_BATCH_MIN}
              max={LAB_BATCH_MAX}
              value={batchText}
              disabled={locked}
              aria-invalid={errorFor('batch') ? 'true' : undefined}
              onInput={(e) => {
                const text = (e.currentTarget as HTMLInputElement).value;
                onChange({ ...settings, batch: text.trim() === '' ? Number.NaN : Number(text) }, text);
              }}
            />,
          );
        const options = SELECTS[name];
        if (!options) return null;
        return field(
          name,
          <select
            value={settings[name]}
            disabled={locked}
            aria-invalid={errorFor(name) ? 'true' : undefined}
            onChange={(e) => onChange({ ...settings, [name]: Number((e.currentTarget as HTMLSelectElement).value) }, batchText)}
          >
            {options.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>,
        );
      })}
      <button type="submit" data-action="run" disabled={locked || errors.length > 0}>
        {runLabel}
      </button>
    </form>
  );
}
