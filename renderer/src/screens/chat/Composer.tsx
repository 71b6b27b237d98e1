// Where a message is written: Enter sends, Shift+Enter is a new line (and Enter while an input
// method is still composing a character, as Arabic and CJK keyboards do, is left to it). While a
// reply is being made the button is Stop, which cancels its task. The model is picked here, beside
// the words, from the models that are available now.
import { useState, type KeyboardEvent } from 'react';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import type { Model } from '../../../../src/contract/tasks';
import { chatStrings } from './strings';
import { WithCode } from '../../components/WithCode';

export interface ComposerProps {
  models: readonly Model[];
  model: string;
  onModel: (id: string) => void;
  /** A reply is being made: the button stops it. */
  active: boolean;
  sending: boolean;
  error: unknown;
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
}

export function Composer({ models, model, onModel, active, sending, error, onSend, onStop }: ComposerProps) {
  const { t } = useStrings(chatStrings);
  const [text, setText] = useState('');
  const available = models.filter((m) => m.status === 'available');
  const chosen = available.some((m) => m.id === model);
  const send = async (): Promise<void> => {
    if (text.trim() === '' || !chosen || active || sending) return;
    if (await onSend(text)) setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    void send();
  };
  return (
    <form
      className="chat-composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      data-testid="chat-composer"
    >
      {models.length > 0 && available.length === 0 && <p className="warn">{t('noModels')}</p>}
      {model !== '' && !chosen && available.length > 0 && (
        <p className="warn" data-testid="chat-model-gone">
          {t('modelGone', { id: model })}
        </p>
      )}
      <label htmlFor="chat-input">{t('message')}</label>
      <textarea
        id="chat-input"
        rows={3}
        dir="auto"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby="chat-input-hint"
        data-testid="chat-input"
      />
      <div className="row chat-composer-bar">
        <span id="chat-input-hint" className="muted">
          <WithCode text={t('messageHint')} />
        </span>
        <label htmlFor="chat-model" className="inline-label">
          {t('model')}
        </label>
        <select id="chat-model" value={chosen ? model : ''} onChange={(e) => onModel(e.target.value)} data-testid="chat-model">
          {!chosen && <option value="">—</option>}
          {models.map((m) => (
            <option key={m.id} value={m.id} disabled={m.status !== 'available'} translate="no">
              {m.status === 'available' ? m.id : t('modelUnavailable', { id: m.id })}
            </option>
          ))}
        </select>
        {active ? (
          <button type="button" className="danger" onClick={onStop} data-testid="chat-stop">
            {t('stop')}
          </button>
        ) : (
          <button type="submit" className="primary" disabled={sending || !chosen || text.trim() === ''} data-testid="chat-send">
            {sending ? t('sending') : t('send')}
          </button>
        )}
      </div>
      {error !== null && error !== undefined && <ErrorNote error={error} />}
    </form>
  );
}
