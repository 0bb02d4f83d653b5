import { useEffect, useMemo, useState } from 'preact/hooks';
import {
  estimateMemory, flagNamed, formatBytes, formatEstimateFlags, GPU_PRESETS, MODEL_PRESETS, parseEstimateFlags,
  type EstimateOptions, type EstimateResult, type FieldError, type FlagDefinition, type RawFlags,
} from '../../memory/index';
import BreakdownChart, { type BreakdownDatum } from './BreakdownChart';
import RentCost from './RentCost';
import ScalingChart from './ScalingChart';
import { CALCULATORS, type CalculatorId } from './specs';
import '../widget.css';
import './calculator.css';

/** Props of the calculator island. */
export interface CalculatorProps {
  /** Which calculator (also its `data-calculator` attribute). */
  readonly id: CalculatorId;
}

const CUSTOM_FIELDS = ['arch', 'hidden', 'layers', 'heads', 'kv-heads', 'ffn', 'vocab'] as const;
const CATEGORY_LABELS: Record<string, string> = {
  weights: 'weights',
  gradients: 'gradients',
  optimizer: 'optimizer states',
  activations: 'activations',
  kvCache: 'KV cache',
  overhead: 'CUDA context & workspace',
};

/** The flags a calculator reads from the URL: its fields plus the model and GPU pickers. */
function ownedFlags(id: CalculatorId): Set<string> {
  const spec = CALCULATORS[id];
  return new Set(['model', 'gpu', 'mode', ...CUSTOM_FIELDS, ...spec.fields, ...Object.keys(spec.defaults)]);
}

function fromQuery(id: CalculatorId, search: string): RawFlags {
  const owned = ownedFlags(id);
  const raw: RawFlags = { ...CALCULATORS[id].defaults };
  for (const [name, value] of new URLSearchParams(search)) if (owned.has(name)) raw[name] = value;
  if (raw['arch'] !== undefined) delete raw['model'];
  return raw;
}

/** A scenario with its engine result. */
interface ScenarioResult {
  readonly label: string;
  readonly options: EstimateOptions;
  readonly result: EstimateResult;
}

type Computed =
  | { readonly ok: true; readonly options: EstimateOptions; readonly results: readonly ScenarioResult[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

function compute(id: CalculatorId, raw: RawFlags): Computed {
  const parsed = parseEstimateFlags(raw, { ignoreUnknown: true });
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const results: ScenarioResult[] = [];
  for (const scenario of CALCULATORS[id].scenarios(parsed.options)) {
    const outcome = estimateMemory(scenario.options);
    if (!outcome.ok) return { ok: false, errors: outcome.errors };
    results.push({ label: scenario.label, options: scenario.options, result: outcome.result });
  }
  return { ok: true, options: parsed.options, results };
}

const both = (bytes: number) => `${formatBytes(bytes, 'GiB')} (${formatBytes(bytes, 'GB')})`;

/**
 * A memory calculator: the reader's model, GPU and settings in, per-GPU memory out, before and
 * after the lesson's technique, computed by the same engine as `npm run estimate`. Its settings
 * live in the URL query under the CLI's flag names, so a configuration is one shareable link.
 */
export default function Calculator({ id }: CalculatorProps) {
  const spec = CALCULATORS[id];
  const [raw, setRaw] = useState<RawFlags>(() => ({ ...spec.defaults }));
  const [touched, setTouched] = useState(false);

  // The query is read after hydration: the prerendered HTML shows the defaults.
  useEffect(() => setRaw(fromQuery(id, location.search)), [id]);

  const computed = useMemo(() => compute(id, raw), [id, raw]);

  useEffect(() => {
    if (!touched || !computed.ok) return;
    const query = new URLSearchParams(formatEstimateFlags(computed.options)).toString();
    history.replaceState(history.state, '', `${location.pathname}?${query}${location.hash}`);
  }, [computed, touched]);

  const set = (name: string, value: string | boolean | undefined) => {
    setTouched(true);
    setRaw((current) => {
      const next = { ...current, [name]: value };
      if (value === undefined || value === '') delete next[name];
      return next;
    });
  };
  const errors = computed.ok ? [] : computed.errors;
  const shownFields = new Set<string>(['model', 'gpu', ...spec.fields, ...(raw['model'] === undefined ? CUSTOM_FIELDS : [])]);
  const errorFor = (name: string) => errors.filter((e) => e.field === name).map((e) => e.message).join('; ');
  const otherErrors = errors.filter((e) => !shownFields.has(e.field));
  const last = computed.ok ? computed.results[computed.results.length - 1]?.result : undefined;

  return (
    <section class="widget calc not-content" data-calculator={id} aria-label="Memory calculator" {...(last ? { 'data-total-bytes': last.perGpu.total } : {})}>
      <div class="calc-fields">
        <Field label="Model" error={errorFor('model')}>
          <select
            value={raw['model'] === undefined ? 'custom' : String(raw['model'])}
            onChange={(e) => {
              const value = (e.currentTarget as HTMLSelectElement).value;
              if (value === 'custom') {
                const preset = MODEL_PRESETS.find((p) => p.id === raw['model']);
                setTouched(true);
                setRaw((current) => {
                  const { model: _model, ...rest } = current;
                  const c = preset?.config;
                  return c ? { ...rest, arch: c.arch, hidden: String(c.hidden), layers: String(c.layers), heads: String(c.heads), 'kv-heads': String(c.kvHeads), ffn: String(c.ffn), vocab: String(c.vocab) } : rest;
                });
              } else {
                setTouched(true);
                setRaw((current) => {
                  const next: RawFlags = { ...current, model: value };
                  for (const name of CUSTOM_FIELDS) delete next[name];
                  return next;
                });
              }
            }}
          >
            {MODEL_PRESETS.map((p) => (
              <option value={p.id}>{p.label}</option>
            ))}
            <option value="custom">Custom…</option>
          </select>
        </Field>
        {raw['model'] === undefined && CUSTOM_FIELDS.map((name) => <FlagField name={name} raw={raw} set={set} error={errorFor(name)} />)}
        <Field label="GPU" error={errorFor('gpu')}>
          <select value={String(raw['gpu'] ?? '')} onChange={(e) => set('gpu', (e.currentTarget as HTMLSelectElement).value || undefined)}>
            <option value="">(no GPU: skip the fit check)</option>
            {GPU_PRESETS.map((g) => (
              <option value={g.id}>
                {g.name} ({g.marketedMemory})
              </option>
            ))}
          </select>
        </Field>
        {spec.fields.map((name) => (
          <FlagField name={name} raw={raw} set={set} error={errorFor(name)} />
        ))}
      </div>

      {otherErrors.length > 0 && (
        <ul class="widget-error" role="alert">
          {otherErrors.map((e) => (
            <li>
              <code>{e.field}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}

      {computed.ok && <Results id={id} results={computed.results} />}
    </section>
  );
}

function Field({ label, error, children }: { label: string; error: string | undefined; children: preact.ComponentChildren }) {
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

function FlagField({ name, raw, set, error }: { name: string; raw: RawFlags; set: (name: string, value: string | boolean | undefined) => void; error: string }) {
  const spec: FlagDefinition | undefined = flagNamed(name);
  if (!spec) return null;
  const label = spec.label;
  const value = raw[name];
  if (spec.kind === 'boolean') {
    return (
      <label class="widget-field calc-check">
        <input type="checkbox" checked={value === true || value === 'true'} onChange={(e) => set(name, (e.currentTarget as HTMLInputElement).checked ? true : undefined)} />
        <span>{label}</span>
      </label>
    );
  }
  const options = spec.kind === 'enum' ? spec.values ?? [] : name === 'teacher' ? MODEL_PRESETS.map((p) => p.id) : null;
  return (
    <Field label={`${label} (${name})`} error={error || undefined}>
      {options ? (
        <select value={String(value ?? '')} aria-invalid={error ? 'true' : undefined} onChange={(e) => set(name, (e.currentTarget as HTMLSelectElement).value || undefined)}>
          <option value="">(default)</option>
          {options.map((o) => (
            <option value={o}>{o}</option>
          ))}
        </select>
      ) : (
        <input
          type="text"
          inputMode="decimal"
          value={typeof value === 'string' ? value : ''}
          placeholder="default"
          aria-invalid={error ? 'true' : undefined}
          onInput={(e) => set(name, (e.currentTarget as HTMLInputElement).value)}
        />
      )}
    </Field>
  );
}

function Results({ id, results }: { id: CalculatorId; results: readonly ScenarioResult[] }) {
  const first = results[0]?.result;
  const lastScenario = results[results.length - 1];
  const last = lastScenario?.result;
  if (!first || !last || !lastScenario) return null;
  const data: BreakdownDatum[] = results.flatMap(({ label, result }) =>
    Object.entries(CATEGORY_LABELS).map(([key, category]) => ({ scenario: label, category, bytes: result.perGpu[key as keyof typeof result.perGpu] })),
  );
  const capacity = last.gpu
    ? { label: last.gpu.name, bytes: last.gpu.memoryBytes, usableBytes: last.gpu.memoryBytes - (last.headroom?.bytes ?? 0) }
    : null;
  const saving = first.perGpu.total > 0 ? 1 - last.perGpu.total / first.perGpu.total : 0;
  return (
    <div class="calc-results" aria-live="polite">
      <table class="widget-table">
        <thead>
          <tr>
            <th scope="col">Scenario</th>
            <th scope="col">Per GPU</th>
            <th scope="col">Host RAM per GPU</th>
            <th scope="col">Fits?</th>
          </tr>
        </thead>
        <tbody>
          {results.map(({ label, result }) => (
            <tr>
              <th scope="row">{label}</th>
              <td>{both(result.perGpu.total)}</td>
              <td>{result.perCpu.total > 0 ? formatBytes(result.perCpu.total, 'GiB') : '—'}</td>
              <td>{result.fits === null ? 'pick a GPU' : result.fits ? 'yes' : `no, ${formatBytes(result.shortfall ?? 0, 'GiB')} short`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {results.length > 1 && (
        <p>
          {saving > 0 ? `Saves ${(saving * 100).toFixed(0)}% per GPU` : saving < 0 ? `Needs ${(-saving * 100).toFixed(0)}% more per GPU` : 'No change per GPU'}
          {last.stepTime ? `; estimated step time ${last.stepTime.totalSeconds.toFixed(2)} s (an estimate: ${last.stepTime.assumptions.join('; ')})` : ''}.
        </p>
      )}
      {last.headroom && (
        <p class="calc-note">
          The dashed line keeps {last.headroom.percent}% of the GPU free ({formatBytes(last.headroom.bytes, 'GiB')}) for fragmentation and
          temporary buffers: plan to stay left of it.
        </p>
      )}
      <BreakdownChart data={data} scenarios={results.map((r) => r.label)} capacity={capacity} />
      {last.warnings.length > 0 && (
        <ul class="calc-warnings">
          {last.warnings.map((w) => (
            <li>{w}</li>
          ))}
        </ul>
      )}
      {id === 'rent-cost' && <RentCost result={last} />}
      {id === 'parallelism' && <ScalingChart options={lastScenario.options} capacityBytes={last.gpu?.memoryBytes ?? null} />}
      <details>
        <summary>Where each number comes from</summary>
        <table class="widget-table calc-lines">
          <tbody>
            {last.lines.map((line) => (
              <tr>
                <td>{line.label}</td>
                <td>{line.device === 'gpu' ? '' : `${line.device}: `}{formatBytes(line.bytes, 'GiB')}</td>
                <td>{line.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          In a terminal: <code>npm run --silent estimate -- {Object.entries(formatEstimateFlags(lastScenario.options)).map(([k, v]) => (v === 'true' ? `--${k} ` : `--${k} ${v} `))}</code>
        </p>
      </details>
    </div>
  );
}
