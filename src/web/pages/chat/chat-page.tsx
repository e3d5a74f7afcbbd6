/**
 * /chat/{id} (docs/console.md#chat-links): the saved chat link number `id` (default 0) in a
 * frame, with the user's first enabled token put into it.
 */
import { Result, Spin } from 'antd';
import { useTranslation } from '../../use-translation';
import { useParams } from 'react-router';
import { usePublicStatus } from '../../state/status-context';
import { chatEntries, fillChatLink, serverAddressOf } from './chat-links';
import { useEnabledTokenKey } from './use-enabled-token';

export function ChatPage() {
  const { t } = useTranslation();
  const { id = '0' } = useParams();
  const status = usePublicStatus();
  const chats = chatEntries(status.chats);
  const index = Number(id);
  const chat = Number.isInteger(index) ? chats[index] : undefined;
  const key = useEnabledTokenKey(Boolean(chat));

  if (chats.length === 0) return <Result status="warning" title={t('chat.messages.notConfigured')} />;
  if (!chat) return <Result status="warning" title={t('chat.messages.badLink')} />;
  if (!key) {
    return (
      <div className="sy-page-spinner">
        <Spin size="large" />
      </div>
    );
  }
  const src = fillChatLink(chat.link, key, serverAddressOf(status.server_address, window.location.origin));
  return <iframe src={src} title={chat.name} className="sy-chat-frame" style={{ width: '100%', height: 'calc(100vh - 140px)', border: 'none' }} data-testid="chat-frame" />;
}
