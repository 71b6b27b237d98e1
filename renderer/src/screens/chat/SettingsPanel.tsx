// A conversation's instructions, temperature, output limit and thinking effort, kept with it
// (chat-settings.ts).
// A field is saved when it is left (or at once, for the choices), never on every key: the metadata
// write is small, but a person typing a system prompt should not make forty of them.
import { useEffect, useState } from 'react';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { isReasoningEffort, REASONING_EFFORTS } from '../../../../src/contract/reasoning';
import { INSTRUCTIONS_MAX, type ChatSettings } from './chat-settings';
import type { ZodNumber } from 'zod/v3';
import { MaxOutputTokens, Temperature } from '../../../../src/contract/sampling';
import { chatStrings } from './strings';

export interface SettingsPanelProps {
  settings: ChatSettings;
  /** Only what changed: the saver lays it on the newest settings. */
  onSave: (patch: Partial<ChatSettings>) => void;
  state: 'idle' | 'saving' | 'saved';
}

/** A typed number checked against the contract's range (the server's own check): empty is null
 *  (the model's default), anything else outside the range is refused here, with words. */
function checked(raw: string, range: ZodNumber): { ok: true; value: number | null } | { ok: false } {
  if (raw.trim() === '') return { ok: true, value: null };
  const parsed = range.safeParse(Number(raw));
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

interface NumberFieldProps {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  /** Saved when the field is left. */
  onLeave: () => void;
  /** Why the value typed was not saved, worded with the field's label; null while it is fine. */
  problem: string | null;
  min: number;
  max?: number;
  step?: number;
  decimal?: boolean;
}

function NumberField({ id, label, hint, value, onChange, onLeave, problem, min, max, step, decimal = false }: NumberFieldProps) {
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
        aria-describedby={problem === null ? `${id}-hint` : `${id}-problem ${id}-hint`}
        aria-invalid={problem !== null}
        data-testid={id}
      />
      {problem !== null && (
        <span id={`${id}-problem`} className="field-error" role="alert" data-testid={`${id}-problem`}>
          {problem}
        </span>
      )}
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
  const [problems, setProblems] = useState<{ temperature: string | null; maxTokens: string | null }>({ temperature: null, maxTokens: null });
  const bound = (v: number | null): string => (v === null ? '' : formatNumber(language, v));
  const leaveTemperature = (): void => {
    const c = checked(temperature, Temperature);
    setProblems((p) => ({ ...p, temperature: c.ok ? null : t('temperatureRange', { min: bound(Temperature.minValue), max: bound(Temperature.maxValue) }) }));
    if (c.ok) save({ temperature: c.value });
  };
  const leaveMaxTokens = (): void => {
    const c = checked(maxTokens, MaxOutputTokens);
    setProblems((p) => ({
      ...p,
      maxTokens: c.ok ? null : t('maxTokensRange', { min: bound(MaxOutputTokens.minValue), max: bound(MaxOutputTokens.maxValue) }),
    }));
    if (c.ok) save({ maxOutputTokens: c.value });
  };
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
          onLeave={leaveTemperature}
          problem={problems.temperature}
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
          onLeave={leaveMaxTokens}
          problem={problems.maxTokens}
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
