// The Chat screen: the list of conversations beside the open one (#/chat/conv_…), or a new one
// (#/chat) that is made when its first message is sent. Loaded on demand: its own chunk.
import { useStrings } from '../../i18n/i18n';
import { ConversationList } from './ConversationList';
import { ConversationView } from './ConversationView';
import { chatStrings } from './strings';
import './chat.css';

export function ChatScreen({ id }: { id: string | null }) {
  const { t } = useStrings(chatStrings);
  return (
    <div className="chat">
      <h1 className="chat-screen-title">{t('title')}</h1>
      <ConversationList current={id} />
      {/* A fresh view per conversation: its turn, drafts and scroll are its own. */}
      <ConversationView key={id ?? 'draft'} id={id} />
    </div>
  );
}
