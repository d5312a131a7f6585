import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { feedback } from '../feedback';
import { fieldMessage } from './form-values';
import { RemoteSelect } from './inputs';
import type { ResourceText } from './labels';
import type { PromptOptions } from './types';

export interface PromptDialogProps {
  name: string;
  text: ResourceText;
  opts: PromptOptions | null;
  onClose: () => void;
}

/** The spec's prompt: one input checked by the call's own schema, the call run on OK. */
export function PromptDialog({ name, text, opts, onClose }: PromptDialogProps) {
  const [form] = Form.useForm<{ value?: string | number }>();
  const [busy, setBusy] = useState(false);
  if (!opts) return null;
  const label = text.label(opts.field);
  const bodyOf = (value: unknown) => ({ ...opts.base, [opts.field]: value ?? '' });

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    try {
      const params = await opts.onOk(values.value === undefined ? '' : String(values.value));
      if (opts.success) feedback.message.success(text.t(opts.success, params ?? {}));
      onClose();
    } catch {
      // The client has shown the server's reason; the dialog stays for another try.
    } finally {
      setBusy(false);
    }
  };

  const Field = opts.kind === 'password' ? Input.Password : Input;
  return (
    <Modal
      open
      title={text.t(opts.title)}
      okText={text.t('common.confirm')}
      cancelText={text.t('common.cancel')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={460}
      mask={{ closable: false }}
    >
      {opts.hint && <Typography.Paragraph type="secondary">{text.t(opts.hint, opts.hintParams ?? {})}</Typography.Paragraph>}
      <Form form={form} name={`${name}-prompt`} layout="vertical" preserve={false} onFinish={() => void submit()}>
        <Form.Item
          name="value"
          label={label}
          required
          rules={[
            {
              validator: async (_, value: unknown) => {
                const msg = fieldMessage(opts.schema, text.lang, name, opts.field, bodyOf(value));
                if (msg) throw new Error(msg);
              },
            },
          ]}
        >
          {opts.select ? (
            <RemoteSelect remote={opts.select} autoFocus placeholder={text.t('kit.selectPlaceholder', { field: label })} />
          ) : (
            <Field
              autoFocus
              autoComplete={opts.kind === 'password' ? 'new-password' : 'off'}
              placeholder={text.t('kit.inputPlaceholder', { field: label })}
            />
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}
