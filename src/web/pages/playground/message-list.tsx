/** The conversation: user messages on the right, assistant answers on the left with their state. */
import { ExclamationCircleOutlined, LoadingOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Empty, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../use-translation';
import type { ChatMessage } from './chat-stream';

function Bubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const mine = message.role === 'user';
  const waiting = message.status === 'loading';
  return (
    <div className={`sy-chat-row ${mine ? 'sy-chat-row-mine' : ''}`} data-testid={`chat-${message.role}`} data-status={message.status ?? 'complete'}>
      <Avatar icon={mine ? <UserOutlined /> : <RobotOutlined />} style={{ background: mine ? '#2563eb' : '#16a34a', flex: 'none' }} />
      <div className={`sy-chat-bubble ${message.status === 'error' ? 'sy-chat-bubble-error' : ''}`}>
        {waiting ? (
          <Typography.Text type="secondary">
            <LoadingOutlined /> {t('playground.thinking')}
          </Typography.Text>
        ) : (
          <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
            {message.status === 'error' && <ExclamationCircleOutlined style={{ color: '#dc2626', marginRight: 6 }} />}
            {message.content}
            {message.status === 'incomplete' && <span className="sy-chat-cursor">▍</span>}
          </Typography.Paragraph>
        )}
      </div>
    </div>
  );
}

export function MessageList({ messages }: { messages: ChatMessage[] }) {
  const { t } = useTranslation();
  const end = useRef<HTMLDivElement>(null);
  const last = messages[messages.length - 1];
  useEffect(() => {
    // A block body: Chromium's scrollIntoView answers a promise, which must not become the effect's cleanup.
    void end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, last?.content]);
  if (messages.length === 0) return <Empty className="sy-chat-empty" description={t('playground.empty')} />;
  return (
    <div className="sy-chat-list" data-testid="chat-list">
      {messages.map((m) => (
        <Bubble key={m.id} message={m} />
      ))}
      <div ref={end} />
    </div>
  );
}
