/**
 * The real message, notification and modal instances behind AppFeedback, in their own chunk:
 * renders their holders and hands the APIs over once mounted.
 */
import { message, Modal, notification as antdNotification } from 'antd';
import type { useAppProps } from 'antd/es/app/context';
import type { NotificationConfig } from 'antd/es/notification/interface';
import { useEffect } from 'react';

export default function FeedbackHost({
  notification,
  onReady,
}: {
  notification?: NotificationConfig;
  onReady: (apis: useAppProps) => void;
}) {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = antdNotification.useNotification(notification);
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => {
    onReady({ message: messageApi, notification: notificationApi, modal: modalApi });
  }, [onReady, messageApi, notificationApi, modalApi]);
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
