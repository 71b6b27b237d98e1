// One conversation (or a draft, before its first message): its title, settings, messages and the
// turn being made, and where the next message is written. Every change goes through the public
// API and is in the store before the screen shows it as done; the turn in flight is remembered in
// the tab (pending-turn.ts) so a reload picks it up.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { href } from '../../app/routes';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import { conversationKey, conversationsKey, itemsKey, textOf, useChatModels, useConversation, useItems, type ChatItem, type Conversation } from './api';
import { ChatItemView } from './ChatItemView';
import { cutOffTurn } from './cut-off-turn';
import { settingsFrom, titleFrom } from './chat-settings';
import { Composer } from './Composer';
import { continueFrom, createConversation, deleteConversation, deleteItems, saveMetadata } from './conversation-actions';
import { ConversationHeader } from './ConversationHeader';
import { MessageList, useKeepBottom } from './MessageList';
import { clearPending, readPending, type PendingTurn } from './pending-turn';
import { PendingTurnView } from './PendingTurnView';
import { sendTurn } from './send-turn';
import { SettingsPanel } from './SettingsPanel';
import { useSettingsSaver } from './settings-saver';
import { chatStrings } from './strings';

const Anything = z.unknown();

export function ConversationView({ id }: { id: string | null }) {
  const { t } = useStrings(chatStrings);
  const client = useQueryClient();
  const models = useChatModels();
  const conversation = useConversation(id);
  const [pending, setPending] = useState<PendingTurn | null>(() => (id === null ? null : readPending(id)));
  const [turnEnded, setTurnEnded] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const keep = useKeepBottom();

  const refreshList = useCallback(() => client.invalidateQueries({ queryKey: [...conversationsKey, 'list'] }), [client]);
  const saver = useSettingsSaver(id, setError, () => void refreshList());
  const save = saver.save;
  const metadata = conversation.data?.metadata ?? {};
  const stored = useMemo(() => settingsFrom(metadata), [metadata]);
  const settings = id === null ? saver.draft : stored;
  // Embedding and reranking models make no text: they are not offered for a chat.
  const writers = (models.data?.data ?? []).filter((m) => m.kind === undefined || m.kind === 'generation');
  const available = writers.filter((m) => m.status === 'available');
  // A conversation that never chose a model talks to the first available one.
  const model = settings.model !== '' ? settings.model : (available[0]?.id ?? '');

  const send = async (text: string): Promise<boolean> => {
    setSending(true);
    setError(null);
    try {
      // Sent with every change made before it, saved: a model chosen a moment ago is the one asked.
      const current = await saver.settled();
      const now = { ...current, model: current.model !== '' ? current.model : model };
      let target = id;
      if (target === null) {
        target = (await createConversation({ ...now, title: titleFrom(text) })).id;
      } else if (current.title === '' || current.model !== now.model) {
        const before = client.getQueryData<Conversation>(conversationKey(target))?.metadata ?? {};
        const saved = await saveMetadata(target, { ...now, title: current.title === '' ? titleFrom(text) : current.title }, before);
        client.setQueryData(conversationKey(target), saved);
      }
      const turn = await sendTurn(target, text, now);
      void refreshList();
      if (id === null) window.location.hash = href('chat', target);
      else {
        setTurnEnded(false);
        setPending(turn);
      }
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setSending(false);
    }
  };

  // Forgets one turn by its task: a turn that ends late (one picked up after a reload) must never
  // take away the turn sent after it.
  const forget = useCallback(
    (taskId: string) => {
      if (id !== null) clearPending(id, taskId);
      setPending((p) => (p?.taskId === taskId ? null : p));
    },
    [id],
  );
  const onCompleted = useCallback(
    (taskId: string) => {
      if (id === null) return;
      // The stored items replace the streamed turn only once they are here: no blink, no gap.
      void client.invalidateQueries({ queryKey: itemsKey(id) }).then(() => {
        forget(taskId);
        void refreshList();
      });
    },
    [client, id, forget, refreshList],
  );
  const stop = (): void => {
    if (pending === null) return;
    api('POST', `/v1/responses/${encodeURIComponent(pending.responseId)}/cancel`, Anything).catch(setError);
  };
  const retry = (): void => {
    if (pending === null) return;
    const text = pending.text;
    forget(pending.taskId);
    void send(text);
  };

  const items = useItems(id);
  const shown: ChatItem[] = useMemo(() => (id === null ? [] : (items.data?.pages.flatMap((p) => p.data) ?? []).slice().reverse()), [items.data, id]);
  const last = shown.at(-1);
  const cutOff = cutOffTurn(shown);
  const retryCutOff =
    id !== null && pending === null && cutOff !== null
      ? () => {
          const text = textOf(cutOff.asked);
          setBusy(true);
          deleteItems(id, cutOff.itemIds)
            .then(() => client.invalidateQueries({ queryKey: itemsKey(id) }))
            .then(() => send(text))
            .catch(setError)
            .finally(() => setBusy(false));
        }
      : null;
  const continueHere = (itemId: string): void => {
    if (id === null) return;
    setBusy(true);
    continueFrom(id, itemId, { ...settings, model, title: t('continuedTitle', { title: settings.title === '' ? t('untitled') : settings.title }) })
      .then((made) => {
        void refreshList();
        window.location.hash = href('chat', made.id);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };
  const remove = (): void => {
    if (id === null) return;
    setBusy(true);
    deleteConversation(id)
      .then(() => {
        clearPending(id);
        client.removeQueries({ queryKey: itemsKey(id) });
        void refreshList();
        window.location.hash = href('chat');
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  if (id !== null && conversation.isError) return <ErrorNote error={conversation.error} onRetry={() => void conversation.refetch()} />;
  const active = pending !== null && !turnEnded;
  return (
    <section className="chat-view card" aria-labelledby="chat-title-heading" data-testid="chat-view" data-id={id ?? ''}>
      <span id="chat-title-heading" hidden>
        {settings.title === '' ? t('untitled') : settings.title}
      </span>
      <ConversationHeader title={settings.title} draft={id === null} onRename={(title) => save({ title })} onDelete={remove} deleting={busy} />
      <p className="muted chat-kept">{t('kept')}</p>
      <SettingsPanel key={id ?? 'draft'} settings={settings} onSave={save} state={saver.state} />
      {items.isError && <ErrorNote error={items.error} onRetry={() => void items.refetch()} />}
      <MessageList
        keep={keep}
        shape={`${shown.length}:${last?.id ?? ''}:${pending?.taskId ?? ''}`}
        firstId={shown[0]?.id ?? null}
        hasEarlier={items.hasNextPage}
        loadingEarlier={items.isFetchingNextPage}
        onEarlier={() => void items.fetchNextPage()}
      >
        {id !== null && items.isSuccess && shown.length === 0 && pending === null && <li className="muted chat-empty">{t('empty')}</li>}
        {shown.map((item) => (
          <ChatItemView key={item.id} item={item} busy={busy || active} onRetryCutOff={item === last ? retryCutOff : null} onContinueFrom={continueHere} />
        ))}
        {pending !== null && (
          <PendingTurnView
            key={pending.taskId}
            turn={pending}
            model={model}
            onCompleted={() => onCompleted(pending.taskId)}
            onGone={() => forget(pending.taskId)}
            onRetry={retry}
            onDismiss={() => forget(pending.taskId)}
            onGrow={keep.keepBottom}
            onEnded={setTurnEnded}
          />
        )}
      </MessageList>
      <Composer
        models={writers}
        model={model}
        onModel={(m) => save({ model: m })}
        active={active}
        sending={sending}
        error={error}
        onSend={send}
        onStop={stop}
      />
    </section>
  );
}
