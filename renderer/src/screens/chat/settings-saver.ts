// Saving a conversation's settings one change at a time. Each change is a patch laid on the newest
// settings (not on the ones the screen last drew) and the saves go out in order, so two quick
// changes, say a token limit left and a model chosen a moment later, both stick: two whole-settings
// saves in flight at once let the slower one write back the old model, and the next turn went to
// the model the person had just left. The change shows at once; a turn waits for the saves before it.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { conversationKey, Conversation } from './api';
import { saveMetadata } from './conversation-actions';
import { DEFAULT_SETTINGS, metadataFor, settingsFrom, type ChatSettings } from './chat-settings';

export type SaveState = 'idle' | 'saving' | 'saved';

export interface SettingsSaver {
  /** A draft's settings (before its first message), kept in the page until the conversation is made. */
  draft: ChatSettings;
  state: SaveState;
  save: (patch: Partial<ChatSettings>) => void;
  /** The settings with every change made so far saved: what a turn is sent with. */
  settled: () => Promise<ChatSettings>;
}

export function useSettingsSaver(id: string | null, onError: (err: unknown) => void, onSaved: () => void): SettingsSaver {
  const client = useQueryClient();
  const [draft, setDraft] = useState<ChatSettings>(DEFAULT_SETTINGS);
  const draftRef = useRef(draft);
  const [state, setState] = useState<SaveState>('idle');
  const queue = useRef<Promise<void>>(Promise.resolve());

  const cached = useCallback((target: string): Conversation | undefined => client.getQueryData<Conversation>(conversationKey(target)), [client]);

  const save = useCallback(
    (patch: Partial<ChatSettings>): void => {
      if (id === null) {
        draftRef.current = { ...draftRef.current, ...patch };
        setDraft(draftRef.current);
        return;
      }
      // Shown at once: the picker and the panel read the cached conversation.
      const now = cached(id);
      if (now !== undefined)
        client.setQueryData(conversationKey(id), { ...now, metadata: metadataFor({ ...settingsFrom(now.metadata), ...patch }, now.metadata) });
      setState('saving');
      queue.current = queue.current.then(async () => {
        const before = cached(id)?.metadata ?? {};
        try {
          const saved = await saveMetadata(id, { ...settingsFrom(before), ...patch }, before);
          client.setQueryData(conversationKey(id), saved);
          setState('saved');
          onSaved();
        } catch (err) {
          onError(err);
          setState('idle');
          // What the store really holds comes back in place of the change that was not kept.
          void client.invalidateQueries({ queryKey: conversationKey(id) });
        }
      });
    },
    [id, cached, client, onError, onSaved],
  );

  const settled = useCallback(async (): Promise<ChatSettings> => {
    if (id === null) return draftRef.current;
    await queue.current;
    return settingsFrom(cached(id)?.metadata ?? {});
  }, [id, cached]);

  return { draft, state, save, settled };
}
