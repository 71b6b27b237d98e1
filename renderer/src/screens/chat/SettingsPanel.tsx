// A conversation's instructions, temperature, output limit and thinking effort, kept with it
// (chat-settings.ts).
// A field is saved when it is left (or at once, for the choices), never on every key: the metadata
// write is small, but a person typing a system prompt should not make forty of them.
import { useEffect, useState } from 'react';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { isReasoningEffort, REASONING_EFFORTS } from '../../../../src/contract/reasoning';
import { INSTRUCTIONS_MAX, type ChatSettings } from './chat-settings';
import { chatStrings } from './strings';

export interface SettingsPanelProps {
  settings: ChatSettings;
  /** Only what changed: the saver lays it on the newest settings. */
  onSave: (patch: Partial<ChatSettings>) => void;
  state: 'idle' | 'saving' | 'saved';
}

const numberOrNull = (raw: string): number | null => (raw.trim() === '' || !Number.isFinite(Number(raw)) ? null : Number(raw));

interface NumberFieldProps {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  /** Saved when the field is left. */
  onLeave: () => void;
  min: number;
  max?: number;
  step?: number;
  decimal?: boolean;
}

function NumberField({ id, label, hint, value, onChange, onLeave, min, max, step, decimal = false }: NumberFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode={decimal ? 'decimal' : 'numeric'}
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onLeave}
        aria-describedby={`${id}-hint`}
        data-testid={id}
      />
      <span id={`${id}-hint`} className="muted">
        {hint}
      </span>
    </div>
  );
}

export function SettingsPanel({ settings, onSave, state }: SettingsPanelProps) {
  const { t, language } = useStrings(chatStrings);
  const [instructions, setInstructions] = useState(settings.instructions);
  const [temperature, setTemperature] = useState(settings.temperature === null ? '' : String(settings.temperature));
  const [maxTokens, setMaxTokens] = useState(settings.maxOutputTokens === null ? '' : String(settings.maxOutputTokens));
  // Another tab or a restore may change them: what the store says wins when it changes.
  useEffect(() => setInstructions(settings.instructions), [settings.instructions]);
  useEffect(() => setTemperature(settings.temperature === null ? '' : String(settings.temperature)), [settings.temperature]);
  useEffect(() => setMaxTokens(settings.maxOutputTokens === null ? '' : String(settings.maxOutputTokens)), [settings.maxOutputTokens]);
  const save = (patch: Partial<ChatSettings>): void => {
    const next = { ...settings, ...patch };
    if (
      next.instructions !== settings.instructions ||
      next.temperature !== settings.temperature ||
      next.maxOutputTokens !== settings.maxOutputTokens ||
      next.reasoningEffort !== settings.reasoningEffort
    )
      onSave(patch);
  };
  return (
    <details className="chat-settings" data-testid="chat-settings">
      <summary>{t('settings')}</summary>
      <div className="field">
        <label htmlFor="chat-instructions">{t('instructions')}</label>
        <textarea
          id="chat-instructions"
          rows={3}
          dir="auto"
          maxLength={INSTRUCTIONS_MAX}
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          onBlur={() => save({ instructions })}
          aria-describedby="chat-instructions-hint"
          data-testid="chat-instructions"
        />
        <span id="chat-instructions-hint" className="muted">
          {t('instructionsHint', { max: formatNumber(language, INSTRUCTIONS_MAX) })}
        </span>
      </div>
      <div className="row chat-settings-numbers">
        <NumberField
          id="chat-temperature"
          label={t('temperature')}
          hint={t('temperatureHint')}
          value={temperature}
          onChange={setTemperature}
          onLeave={() => save({ temperature: numberOrNull(temperature) })}
          min={0}
          max={2}
          step={0.1}
          decimal
        />
        <NumberField
          id="chat-max-tokens"
          label={t('maxTokens')}
          hint={t('maxTokensHint')}
          value={maxTokens}
          onChange={setMaxTokens}
          onLeave={() => save({ maxOutputTokens: numberOrNull(maxTokens) })}
          min={1}
        />
      </div>
      <div className="field">
        <label htmlFor="chat-effort">{t('effort')}</label>
        <select
          id="chat-effort"
          value={settings.reasoningEffort ?? ''}
          onChange={(e) => save({ reasoningEffort: isReasoningEffort(e.target.value) ? e.target.value : null })}
          aria-describedby="chat-effort-hint"
          data-testid="chat-effort"
        >
          <option value="">{t('effort_default')}</option>
          {REASONING_EFFORTS.map((effort) => (
            <option key={effort} value={effort}>
              {t(`effort_${effort}`)}
            </option>
          ))}
        </select>
        <span id="chat-effort-hint" className="muted">
          {t('effortHint')}
        </span>
      </div>
      <p className="muted" role="status" data-testid="chat-settings-state">
        {state === 'saving' ? t('saving') : state === 'saved' ? t('saved') : ''}
      </p>
    </details>
  );
}
