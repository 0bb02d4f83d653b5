import { STACK_SPECS, STACKS, type NotModelled, type Stack, type StackSetting } from '../../memory/index';
import { useMessages } from '../../i18n/use-messages';

/** Props of the "How do you train?" choice. */
export interface StackPickerProps {
  readonly stack: Stack;
  readonly onPick: (stack: Stack) => void;
  /** What the stack set for the shown estimate (empty for inference, or when every option is given). */
  readonly settings: readonly StackSetting[];
  /** What the stack does that the estimate does not count yet. */
  readonly notModelled: readonly NotModelled[];
}

/**
 * "How do you train?": the training stack whose defaults fill every setting the reader leaves alone, and, under it,
 * what that stack set for this estimate and what it does that is not counted yet, each with its source on hover.
 */
export default function StackPicker({ stack, onPick, settings, notModelled }: StackPickerProps) {
  const messages = useMessages();
  const text = messages.calculator;
  const stackNames = messages.engine.stacks;
  const spec = STACK_SPECS[stack];
  return (
    <div class="calc-stack" data-stack={stack}>
      <label class="widget-field">
        <span>
          {text.stackQuestion} <code class="calc-flag">--stack</code>
        </span>
        <select data-flag="stack" value={stack} onChange={(e) => onPick((e.currentTarget as HTMLSelectElement).value as Stack)}>
          {STACKS.map((id) => (
            <option value={id}>{stackNames[id]}</option>
          ))}
        </select>
      </label>
      <p class="calc-note calc-stack-set" data-stack-set={settings.map((s) => `${s.flag}=${s.value}`).join('&')}>
        {text.stackAssumes(stackNames[stack], spec.version)}{' '}
        {settings.length === 0
          ? text.stackSetNothing
          : settings.map((s, i) => (
              <>
                {i > 0 && ', '}
                <code title={s.source}>
                  --{s.flag} {s.value}
                </code>
              </>
            ))}
        {text.sentenceEnd}
      </p>
      {notModelled.length > 0 && (
        <p class="calc-note calc-stack-gaps">
          {text.stackNotModelled}{' '}
          {notModelled.map((gap, i) => (
            <>
              {i > 0 && '; '}
              <span title={gap.source}>{gap.what}</span>
            </>
          ))}
          {text.sentenceEnd}
        </p>
      )}
    </div>
  );
}
