import { message, Modal, notification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { setToastSink } from './api/toasts';

/**
 * Toasts and dialogs for code outside React (the API client). The app root hands over the
 * themed instances from antd's `App.useApp()`; until then the static ones serve.
 */
export const feedback: { message: MessageInstance; modal: ModalHookAPI; notification: NotificationInstance } = {
  message,
  modal: Modal as unknown as ModalHookAPI,
  notification,
};

export function setFeedback(f: typeof feedback) {
  Object.assign(feedback, f);
}

// The API client's toasts (shared/api/toasts.ts) go to whichever instances are current.
setToastSink(() => feedback.message);
