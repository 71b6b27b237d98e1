// The open conversation's title, with Rename (in place) and Delete (it asks first).
import { useState } from 'react';
import { ConfirmAction } from '../../components/ConfirmAction';
import { useStrings } from '../../i18n/i18n';
import { TITLE_MAX } from './chat-settings';
import { chatStrings } from './strings';

export interface ConversationHeaderProps {
  title: string;
  /** A draft: nothing to rename or delete yet. */
  draft: boolean;
  onRename: (title: string) => void;
  onDelete: () => void;
  deleting: boolean;
}

export function ConversationHeader({ title, draft, onRename, onDelete, deleting }: ConversationHeaderProps) {
  const { t } = useStrings(chatStrings);
  const [editing, setEditing] = useState<string | null>(null);
  const shown = draft ? t('draftTitle') : title === '' ? t('untitled') : title;
  if (editing !== null) {
    return (
      <form
        className="row chat-head"
        onSubmit={(e) => {
          e.preventDefault();
          onRename(editing.trim());
          setEditing(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setEditing(null);
        }}
      >
        <label htmlFor="chat-title-input" className="inline-label">
          {t('renameLabel')}
        </label>
        <input
          id="chat-title-input"
          dir="auto"
          autoFocus
          maxLength={TITLE_MAX}
          value={editing}
          onChange={(e) => setEditing(e.target.value)}
          data-testid="chat-title-input"
        />
        <button type="submit" className="primary" disabled={editing.trim() === ''}>
          {t('save')}
        </button>
        <button type="button" onClick={() => setEditing(null)}>
          {t('cancel')}
        </button>
      </form>
    );
  }
  return (
    <div className="row chat-head">
      <h2 dir="auto" data-testid="chat-title">
        {shown}
      </h2>
      {!draft && (
        <>
          <button type="button" onClick={() => setEditing(title)} data-testid="chat-rename">
            {t('rename')}
          </button>
          <ConfirmAction
            label={t('delete')}
            question={t('deleteQuestion', { title: shown })}
            confirmLabel={t('deleteConfirm')}
            onConfirm={onDelete}
            busy={deleting}
            testId="chat-delete"
          />
        </>
      )}
    </div>
  );
}
