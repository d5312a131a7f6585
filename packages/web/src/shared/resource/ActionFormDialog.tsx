import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { FormFields } from './FormFields';
import type { ResourceText } from './labels';
import type { Resource } from './types';
import { useResourceForm } from './useResourceForm';

/**
 * One action on a row (approve, issue, assign, …) as a dialog: what the caller shows of the row, then the
 * kit's form of the action (validated with its contract schema, sent by the resource's `add` call), closed
 * once the call succeeds. Mount it per row (`key`), so each opening starts from a blank form.
 */
export function ActionFormDialog({
  resource,
  text,
  title,
  width = 560,
  onClose,
  children,
}: {
  resource: Resource;
  text: ResourceText;
  title: ReactNode;
  width?: number;
  onClose: () => void;
  /** Above the form: the row's summary, a hint. */
  children?: ReactNode;
}) {
  const f = useResourceForm({ resource, text, mode: 'create', active: true });
  return (
    <Modal
      open
      title={title}
      okText={text.t('common.confirm')}
      cancelText={text.t('common.cancel')}
      confirmLoading={f.saving}
      onOk={() => void f.submit().then((saved) => saved && onClose())}
      onCancel={onClose}
      destroyOnHidden
      width={width}
      mask={{ closable: false }}
    >
      {children}
      <FormFields resource={resource} text={text} state={f} span={24} />
    </Modal>
  );
}
