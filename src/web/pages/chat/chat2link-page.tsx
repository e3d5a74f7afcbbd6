/**
 * /chat2link (docs/console.md#chat-links): builds the chat app's link from the configured
 * chat link (NextChat-style settings with the key and this server's URL), or the first saved
 * chat, and goes there.
 */
import { Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from '../../use-translation';
import { usePublicStatus } from '../../state/status-context';
import { chat2Link, chatEntries, fillChatLink, serverAddressOf } from './chat-links';
import { useEnabledTokenKey } from './use-enabled-token';

export function Chat2LinkPage() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const chatLink = typeof status.chat_link === 'string' ? status.chat_link.trim() : '';
  const firstChat = chatEntries(status.chats)[0];
  const configured = Boolean(chatLink || firstChat);
  const key = useEnabledTokenKey(configured);

  useEffect(() => {
    if (!key) return;
    const address = serverAddressOf(status.server_address, window.location.origin);
    window.location.href = chatLink ? chat2Link(chatLink, key, address) : fillChatLink(firstChat!.link, key, address);
  }, [key, chatLink, firstChat, status.server_address]);

  if (!configured) return <Result status="warning" title={t('chat.messages.notConfigured')} />;
  return (
    <div className="sy-page-spinner">
      <Spin size="large" tip={t('chat.redirecting')}>
        <div style={{ width: 200, height: 80 }} />
      </Spin>
    </div>
  );
}
