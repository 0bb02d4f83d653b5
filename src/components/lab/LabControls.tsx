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

/** The choice lists and labels of the fields shown as selects. */
const SELECTS: Partial<Record<LabField, { readonly label: string; readonly options: readonly number[] }>> = {
  hidden: { label: 'Width', options: LAB_WIDTHS },
  layers: { label: 'Layers', options: LAB_LAYERS },
  microBatches: { label: 'Micro-batches', options: LAB_MICRO_BATCHES },
  devices: { label: 'Virtual GPUs', options: LAB_DEVICES },
};

export interface LabControlsProps {
  readonly fields: readonly LabField[];
  readonly settings: LabSettings;
  /** What the batch box holds, as typed (it may not be a number yet). */
  readonly batchText: string;
  readonly errors: readonly SettingError[];
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
  ready,
  running,
  runLabel,
  onChange,
  onRun,
}: LabControlsProps) {
  const locked = !ready || running;
  const errorFor = (field: LabField) => errors.find((e) => e.field === field)?.message;
  const field = (name: LabField, label: string, control: ComponentChildren) => (
    <WidgetField label={label} error={errorFor(name)}>
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
            'Batch',
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
        const select = SELECTS[name];
        if (!select) return null;
        return field(
          name,
          select.label,
          <select
            value={settings[name]}
            disabled={locked}
            aria-invalid={errorFor(name) ? 'true' : undefined}
            onChange={(e) => onChange({ ...settings, [name]: Number((e.currentTarget as HTMLSelectElement).value) }, batchText)}
          >
            {select.options.map((o) => (
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
