import { useQueryClient } from '@tanstack/react-query';
import { Col, Form, Modal, Row, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { ApiError, call } from '../api/client';
import { feedback } from '../feedback';
import { fieldMessage, fieldsFor, isRequired, recordToValues, schemaOf, valuesToBody, type Mode } from './form-values';
import { FormInput } from './FormInput';
import type { ResourceText } from './labels';
import type { Resource } from './types';

type Values = Record<string, unknown>;

export interface FormDialogState {
  mode: Mode;
  record?: Values;
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
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [loading, setLoading] = useState(false);
  const [record, setRecord] = useState<Values | undefined>();
  const mode = state?.mode ?? 'create';
  const schema = schemaOf(resource, mode);
  const width = dialogWidth(resource);
  const span = width >= 1000 ? 12 : 24;
  const rowKey = resource.rowKey ?? 'id';

  useEffect(() => {
    if (!state) return;
    form.resetFields();
    setRecord(state.record);
    if (state.mode !== 'edit' || !state.record) return;
    form.setFieldsValue(recordToValues(resource, state.record));
    const get = resource.api.get;
    if (!get) return;
    // The row may be stale or abridged: edit the current record.
    setLoading(true);
    call(get, { query: { [rowKey]: state.record[rowKey] } as never })
      .then((fresh) => {
        setRecord(fresh as Values);
        form.setFieldsValue(recordToValues(resource, fresh as Values));
      })
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [state, form, resource, rowKey]);

  const bodyOf = (values: Values) => valuesToBody(resource, mode, values, record);

  const submit = async () => {
    const ep = mode === 'create' ? resource.api.add : resource.api.edit;
    if (!ep) return;
    const values = (await form.validateFields().catch(() => null)) as Values | null;
    if (!values) return;
    const body = bodyOf(form.getFieldsValue(true) as Values);
    const parsed = schema ? schema.safeParse(body) : { success: true as const, data: body };
    if (!parsed.success) return;
    setSaving(true);
    try {
      await call(ep, { body: parsed.data as never }, { fieldErrors: true });
      feedback.message.success(text.t('common.success'));
      await queryClient.invalidateQueries({ queryKey: [resource.api.list.path] });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 400) {
        // The server's message names the field; mark it, or toast when the form has no such field.
        const name = err.field?.split('.')[0];
        if (name && fieldsFor(resource, mode).some((f) => f.key === name)) form.setFields([{ name, errors: [err.message] }]);
        else feedback.message.error(err.message);
      }
    } finally {
      setSaving(false);
    }
  };

  const ctx = { mode, form };
  const title = text.title(mode === 'create' ? 'kit.addTitle' : 'kit.editTitle', { name: text.entity });
  return (
    <Modal
      open={state !== null}
      title={title}
      width={width}
      okText={text.t('common.confirm')}
      cancelText={text.t('common.cancel')}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Spin spinning={loading}>
        <Form form={form} name={`${resource.name}-form`} layout="vertical" preserve={false}>
          <Row gutter={16}>
            {fieldsFor(resource, mode).map((def) => (
              <Col key={def.key} span={def.span ?? span}>
                <Form.Item
                  name={def.key}
                  label={text.label(def.key, def.label)}
                  required={def.required ?? isRequired(schema, def.key)}
                  valuePropName={def.kind === 'switch' ? 'checked' : 'value'}
                  rules={[
                    {
                      validator: async () => {
                        const msg = fieldMessage(schema, text.lang, resource.name, def.key, bodyOf(form.getFieldsValue(true) as Values));
                        if (msg) throw new Error(msg);
                      },
                    },
                  ]}
                >
                  {def.kind === 'custom' && def.render ? (
                    def.render(ctx)
                  ) : (
                    <FormInput def={def} text={text} ctx={ctx} disabled={def.readOnlyOn === mode} />
                  )}
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Form>
      </Spin>
    </Modal>
  );
}
