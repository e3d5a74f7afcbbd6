/**
 * The tokens' chat-link action (docs/console.md#lists-and-forms): opens a saved chat link
 * with the row's key put in; with several saved chats the user picks one first.
 */
import { useTranslation } from 'react-i18next';
import type { Label } from '../../shared/resources/definition';
import { chatEntries, fillChatLink, serverAddressOf } from '../pages/chat/chat-links';
import { usePublicStatus } from '../state/status-context';
import { useApp } from '../state/feedback-app';

type Row = Record<string, unknown>;
type OpenPick = (request: { titleKey: Label; options: string[]; run: (value: string) => Promise<boolean> }) => void;

export function useChatLauncher(openPick: OpenPick): (row: Row) => Promise<boolean> {
  const { t } = useTranslation();
  const { message } = useApp();
  const status = usePublicStatus();
  return async (row) => {
    const chats = chatEntries(status.chats);
    if (chats.length === 0) {
      void message.error(t('chat.messages.notConfigured'));
      return false;
    }
    const address = serverAddressOf(status.server_address, window.location.origin);
    const open = async (name: string) => {
      const chat = chats.find((c) => c.name === name) ?? chats[0];
      window.open(fillChatLink(chat.link, String(row.key ?? ''), address), '_blank', 'noopener');
      return true;
    };
    if (chats.length === 1) return open(chats[0].name);
    openPick({ titleKey: 'tokens.actions.chooseChat', options: chats.map((c) => c.name), run: open });
    return true;
  };
}
