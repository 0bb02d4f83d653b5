import { GPU_PRESETS } from '../memory/index';

/**
 * The GPU picker every calculator shows: the engine's presets by name and marketed memory, and an empty choice for no
 * fit check. Its `data-flag` is the URL's and the CLI's flag name, which the browser tests select it by.
 */
export default function GpuSelect({
  value,
  noGpuLabel,
  onPick,
}: {
  value: string;
  noGpuLabel: string;
  onPick: (id: string | undefined) => void;
}) {
  return (
    <select data-flag="gpu" value={value} onChange={(e) => onPick((e.currentTarget as HTMLSelectElement).value || undefined)}>
      <option value="">{noGpuLabel}</option>
      {GPU_PRESETS.map((g) => (
        <option value={g.id}>
          {g.name} ({g.marketedMemory})
        </option>
      ))}
    </select>
  );
}
