import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { createElement, useCallback } from 'react';
import { call } from '../api/client';
import { downloadExport } from '../api/download';
import { subscribe } from '../events';
import { feedback } from '../feedback';
import { newRequestId } from '../request-id';
import { ExportProgress } from './ExportProgress';
import type { ResourceText } from './labels';
import type { ConfirmOptions, Resource } from './types';
import { filtersOf, shapeKeys } from './url-query';

/** Delete after the spec's confirm dialog (系统提示, 确定/取消), then refetch the list. */
export function useRemove(resource: Resource, text: ResourceText, onDone?: () => void) {
  const queryClient = useQueryClient();
  return useCallback(
    (ids: Array<string | number>) => {
      const ep = resource.api.remove;
      if (!ep || ids.length === 0) return;
      feedback.modal.confirm({
        title: text.t('common.systemPrompt'),
        content: text.t('kit.deleteConfirm', { ids: ids.join(',') }),
        okText: text.t('common.confirm'),
        cancelText: text.t('common.cancel'),
        onOk: async () => {
          // A refusal (409 "has members") was toasted by the client; the dialog closes either way.
          const ok = await call(ep, { body: { ids } as never }).then(
            () => true,
            () => false,
          );
          if (!ok) return;
          feedback.message.success(text.t('kit.deleteSuccess'));
          onDone?.();
          await queryClient.invalidateQueries({ queryKey: [resource.api.list.path] });
        },
      });
    },
    [resource, text, queryClient, onDone],
  );
}

/** The spec's confirm (系统提示, 确定/取消) before a row operation; after the call, a success toast and `onDone`. */
export function confirmThenCall(text: ResourceText, opts: ConfirmOptions, onDone: () => void) {
  feedback.modal.confirm({
    title: text.t('common.systemPrompt'),
    content: text.t(opts.content, opts.params ?? {}),
    okText: text.t('common.confirm'),
    cancelText: text.t('common.cancel'),
    onOk: async () => {
      // A refusal was toasted by the client; close the dialog all the same (no unhandled rejection).
      const ok = await opts.onOk().then(
        () => true,
        () => false,
      );
      if (ok && opts.success !== null) feedback.message.success(text.t(opts.success ?? 'common.success'));
      onDone();
    },
  });
}

type ExportProgressEvent = {
  type: 'export.progress';
  exportId: string;
  done: number;
  total: number;
};

/**
 * Export the list's current filters: the request carries an exportId; the server's
 * `export.progress` events for it drive a notification until the file is saved.
 */
export function useExport(resource: Resource, text: ResourceText, query: Record<string, unknown>) {
  return useCallback(
    async (format: 'xlsx' | 'csv') => {
      const ep = resource.api.export;
      if (!ep) return;
      const exportId = newRequestId();
      const key = `export-${exportId}`;
      const title = text.title('kit.exporting', { name: text.entity });
      const show = (done: number, total: number) =>
        feedback.notification.open({
          key,
          title,
          description: createElement(ExportProgress, { text, done, total }),
          duration: 0,
          placement: 'bottomRight',
        });
      show(0, 0);
      const off = subscribe<ExportProgressEvent>('export.progress', (e) => {
        if (e.exportId === exportId) show(e.done, e.total);
      });
      const body = { ...filtersOf(query, shapeKeys(ep.body)), format, exportId };
      try {
        await downloadExport(ep, body, `${text.entity}_${dayjs().format('YYYYMMDDHHmmss')}.${format}`);
        feedback.notification.success({ key, title: text.t('kit.exportDone'), duration: 3, placement: 'bottomRight' });
      } catch {
        feedback.notification.destroy(key);
      } finally {
        off();
      }
    },
    [resource, text, query],
  );
}
