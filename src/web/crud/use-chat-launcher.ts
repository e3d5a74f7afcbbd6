/**
 * The chat-link row action (the tokens', docs/console.md#lists-and-forms): opens a saved chat
 * link with the row's key put in; with several saved chats the user picks one first, under
 * the declaration's `pickTitleKey`.
 */
import { useTranslation } from '../use-translation';
import type { ChatLinkActionDef } from '../../shared/resources/actions';
import type { Label } from '../../shared/resources/label';
import { chatEntries, fillChatLink, serverAddressOf } from '../pages/chat/chat-links';
import { usePublicStatus } from '../state/status-context';
import { useApp } from '../state/feedback-app';

type Row = Record<string, unknown>;
type OpenPick = (request: { titleKey: Label; options: string[]; run: (value: string) => Promise<boolean> }) => void;

export function useChatLauncher(openPick: OpenPick): (action: ChatLinkActionDef, row: Row) => Promise<boolean> {
  const { t } = useTranslation();
  const { message } = useApp();
  const status = usePublicStatus();
  return async (action, row) => {
    const chats = chatEntries(status.chats);
    if (chats.length === 0) {
      void message.error(t('chat.messages.notConfigured'));
      return false;
    }
    const address = serverAddressOf(status.server_address, window.location.origin);
    const open = async (name: string) => {
      const chat = chats.find((c) => c.name === name) ?? chats[0];
      window.open(fillChatLink(chat.link, String(row[action.keyField ?? 'key'] ?? ''), address), '_blank', 'noopener');
      return true;
    };
    if (chats.length === 1) return open(chats[0].name);
    openPick({ titleKey: action.pickTitleKey, options: chats.map((c) => c.name), run: open });
    return true;
  };
}
