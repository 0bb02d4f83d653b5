import type { ModelFacts } from './model-facts';
import { useMessages } from '../../i18n/use-messages';
import './model-source.css';

/**
 * The model the engine computed, next to its picker: name, parameter count (and active count for a mixture of experts)
 * and architecture family, so no shape is ever computed unseen. `data-params` holds the exact count for the tests.
 */
export default function ModelParams({ name, facts, stale = false }: { name: string; facts: ModelFacts; stale?: boolean }) {
  const text = useMessages().modelSource;
  const active = facts.activeParams === facts.params ? null : text.parameterCount(facts.activeParams);
  return (
    <p class={`model-params${stale ? ' model-stale' : ''}`} data-params={facts.params} aria-live="polite">
      {text.modelParams(name, text.parameterCount(facts.params), active, facts.family)}
    </p>
  );
}
