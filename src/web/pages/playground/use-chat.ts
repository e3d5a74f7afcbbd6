/**
 * The conversation: sending appends the user message and an empty assistant message
 * (loading), the stream fills it (incomplete) until [DONE] or the end (complete); a failure
 * appends its text (error). Clearing empties the conversation and stops a running answer.
 */
import { useRef, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { getStoredUser } from '../../auth-provider';
import type { ChatSettings } from './chat-settings';
import { appendError, applyChunk, buildRequest, streamChat, type ChatMessage } from './chat-stream';
import { useApp } from '../../state/feedback-app';

let counter = 0;
const newId = () => `${Date.now().toString(36)}-${(counter++).toString(36)}`;

export function useChat(settings: ChatSettings) {
  const { t } = useTranslation();
  const { message } = useApp();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const abort = useRef<AbortController | null>(null);
  const busy = messages.some((m) => m.status === 'loading' || m.status === 'incomplete');

  const update = (id: string, change: (m: ChatMessage) => ChatMessage) => setMessages((list) => list.map((m) => (m.id === id ? change(m) : m)));

  const send = (text: string) => {
    if (!text.trim() || busy) return;
    const user: ChatMessage = { id: newId(), role: 'user', content: text, createAt: Date.now() };
    const answer: ChatMessage = { id: newId(), role: 'assistant', content: '', createAt: Date.now(), status: 'loading' };
    const history = [...messages, user];
    setMessages([...history, answer]);
    const controller = new AbortController();
    abort.current = controller;
    void streamChat(
      buildRequest(settings, history),
      getStoredUser()?.id ?? -1,
      {
        onResult: (result) => {
          if (result.kind === 'unparsable') return void message.error(t('playground.parseError'));
          update(answer.id, (m) => applyChunk(m, result));
        },
        onError: (error) => update(answer.id, (m) => ({ ...m, content: appendError(m.content, error), status: 'error' })),
        onEnd: () => update(answer.id, (m) => (m.status === 'error' ? m : { ...m, status: 'complete' })),
      },
      controller.signal,
    );
  };

  const clear = () => {
    abort.current?.abort();
    setMessages([]);
  };

  return { messages, busy, send, clear };
}
