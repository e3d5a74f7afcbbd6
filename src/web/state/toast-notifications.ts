/**
 * refine's notifications as antd toasts, like every other message of the console
 * (docs/console.md#replies-and-errors).
 */
import type { NotificationProvider } from '@refinedev/core';
import { useApp } from './feedback-app';

export function useToastNotificationProvider(): NotificationProvider {
  const { message } = useApp();
  return {
    open: ({ key, type, message: title, description }) => {
      const content = description ? (title ? `${title}: ${description}` : description) : title;
      if (type === 'progress') void message.loading({ key, content });
      else void message.open({ key, type, content });
    },
    close: (key) => message.destroy(key),
  };
}
