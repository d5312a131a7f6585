import { act, cleanup, configure, waitFor } from '@testing-library/react';
import { message, Modal, notification } from 'antd';
import { afterAll, afterEach } from 'vitest';
import { i18n, initI18n } from './i18n';
import { resources } from './i18n/resources';
import { polyfillDom } from './shared/resource/test-kit';

initI18n('en-US', resources);
// jsdom lacks matchMedia, ResizeObserver and canvas, which antd asks for.
polyfillDom();
// findBy*/waitFor wait for their condition; the default of one second is a speed assumption that a
// shared CI machine breaks (a screen of antd in jsdom can take several seconds to render there).
// A condition that never comes still fails, after this long.
configure({ asyncUtilTimeout: 30_000 });

/**
 * Close what antd's static holders show (toasts, notifications and dialogs opened through
 * `feedback` outside an `<App>`, e.g. a point's key dialog): Testing Library's cleanup does not
 * unmount them, and their close timers would otherwise fire after jsdom is torn down
 * ("ReferenceError: window is not defined") or show in the next test.
 */
async function closeStaticFeedback() {
  const open = () => document.querySelector('.ant-message-notice, .ant-notification-notice, .ant-modal-root .ant-modal-wrap');
  if (!open()) return;
  act(() => {
    message.destroy();
    notification.destroy();
    Modal.destroyAll();
  });
  await waitFor(() => {
    if (open()) throw new Error('antd toasts or dialogs still open after the test');
  });
}

// After hooks run last-registered first: unmount (cleanup), close the static toasts and dialogs,
// then reset the language, so the reset never re-renders a tree after its test (or after jsdom is gone).
afterEach(() => i18n.changeLanguage('en-US'));
afterEach(closeStaticFeedback);
afterEach(cleanup);

/**
 * React runs a commit's effects from its scheduler, in a later turn of the event loop
 * (setImmediate). One left over from the file's last test (an antd holder's own root, a state
 * update from a request that answered as the test ended) would run after jsdom is torn down:
 * "ReferenceError: window is not defined". Before the file ends, let those turns go by; each wait
 * is one turn of the loop, not a length of time.
 */
afterAll(async () => {
  // Twenty, not five: on a loaded machine a request's answer can start a render a few turns later
  // (seen once in warn.test.tsx with two test runs and a benchmark on two cores).
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
});
