/**
 * antd's message, notification and modal hooks with their holders: the part of antd's App
 * that `console-app.tsx` loads on the first call (Modal, the toast stacks and what they bring).
 */
import type { useAppProps } from 'antd/es/app/context';
import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import useNotification from 'antd/es/notification/useNotification';
import { useEffect } from 'react';

export default function FeedbackHolders({ onReady }: { onReady: (apis: useAppProps) => void }) {
  const [message, messageHolder] = useMessage();
  const [notification, notificationHolder] = useNotification();
  const [modal, modalHolder] = useModal();
  useEffect(() => onReady({ message, notification, modal }), [message, notification, modal, onReady]);
  // antd's App's order.
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
