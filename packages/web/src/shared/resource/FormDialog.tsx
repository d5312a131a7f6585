import { Modal, Spin } from 'antd';
import { FormFields } from './FormFields';
import type { Mode } from './form-values';
import type { ResourceText } from './labels';
import type { Resource } from './types';
import { useResourceForm } from './useResourceForm';

export interface FormDialogState {
  mode: Mode;
  record?: Record<string, unknown>;
}

export interface FormDialogProps {
  resource: Resource;
  text: ResourceText;
  state: FormDialogState | null;
  onClose: () => void;
}

/** Wide dialog (1000 px, two columns) for big forms, narrow (600 px) otherwise. */
export function dialogWidth(resource: Resource): number {
  return resource.formWidth ?? ((resource.form?.length ?? 0) > 6 ? 1000 : 600);
}

/** Add and edit dialog: validated with the contract's schema, so messages equal the server's. */
export function FormDialog({ resource, text, state, onClose }: FormDialogProps) {
  const mode = state?.mode ?? 'create';
  const f = useResourceForm({ resource, text, mode, record: state?.record, active: state !== null });
  const width = dialogWidth(resource);

  const createTitle = resource.texts?.createTitle;
  const title =
    mode === 'create' && createTitle
      ? text.t(createTitle)
      : text.title(mode === 'create' ? 'kit.addTitle' : 'kit.editTitle', { name: text.entity });
  return (
    <Modal
      open={state !== null}
      title={title}
      width={width}
      okText={text.t('common.confirm')}
      cancelText={text.t('common.cancel')}
      confirmLoading={f.saving}
      onOk={() => void f.submit().then((saved) => saved && onClose())}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Spin spinning={f.loading}>
        <FormFields resource={resource} text={text} state={f} span={width >= 1000 ? 12 : 24} />
      </Spin>
    </Modal>
  );
}
