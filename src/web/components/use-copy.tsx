/**
 * Copies text to the clipboard; when the browser refuses, a dialog shows the text to copy
 * by hand (docs/console.md#replies-and-errors).
 */
import { Input } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from '../use-translation';
import { useApp } from '../state/feedback-app';

async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function useCopy(): (text: string, successText?: string) => Promise<boolean> {
  const { t } = useTranslation();
  const { message, modal } = useApp();
  return useCallback(
    async (text: string, successText?: string) => {
      if (await writeClipboard(text)) {
        void message.success(successText ?? t('common.copied'));
        return true;
      }
      modal.info({
        title: t('errors.copyManually'),
        content: <Input.TextArea value={text} autoSize={{ minRows: 2, maxRows: 8 }} readOnly />,
      });
      return false;
    },
    [message, modal, t],
  );
}
