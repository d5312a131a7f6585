import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { feedback } from './feedback';

/**
 * Toasts and dialogs opened through `feedback` outside a React tree (antd's static holders) are
 * not unmounted by Testing Library's cleanup: their close timers used to fire after jsdom was torn
 * down ("ReferenceError: window is not defined"). The test setup closes them after every test.
 * The two tests run in order: the second sees what the first left behind.
 */
describe('feedback left open by a test', () => {
  it('opens a toast, a notification and a dialog that would stay until a timer closes them', async () => {
    render(<p>page</p>);
    act(() => {
      void feedback.message.success({ content: 'left-over toast', duration: 0 });
      feedback.notification.open({ title: 'left-over notification', duration: 0 });
      feedback.modal.info({ title: 'left-over dialog' });
    });
    expect(await screen.findByText('left-over toast')).toBeTruthy();
    expect(await screen.findByText('left-over notification')).toBeTruthy();
    expect((await screen.findAllByText('left-over dialog')).length).toBeGreaterThan(0);
  });

  it('is closed before the next test starts', () => {
    expect(document.querySelector('.ant-message-notice, .ant-notification-notice, .ant-modal-wrap')).toBeNull();
    expect(document.body.textContent).not.toMatch(/left-over/);
  });
});
