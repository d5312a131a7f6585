import { useQueryClient } from '@tanstack/react-query';
import { Col, Divider, Form, Modal, Row, Spin, type FormRule } from 'antd';
import { useEffect, useState } from 'react';
import { ApiError, call } from '../api/client';
import { feedback } from '../feedback';
import { fieldMessage, fieldsFor, isRequired, recordToValues, schemaOf, valuesToBody, type Mode } from './form-values';
import { FormInput } from './FormInput';
import { remoteOptionsKey } from './inputs';
import type { ResourceText } from './labels';
import type { FormFieldCtx, FormFieldDef, Resource } from './types';

type Values = Record<string, unknown>;

/** A field's server-side check (uniqueness), run on blur and on submit once the field is valid by the schema. */
function asyncRule(def: FormFieldDef, ctx: FormFieldCtx, schemaPasses: () => boolean): FormRule {
  return {
    validateTrigger: 'onBlur',
    validator: async (_, value: unknown) => {
      if (value === undefined || value === null || value === '' || !schemaPasses()) return;
      const msg = await def.validate!(value, ctx);
      if (msg) throw new Error(msg);
    },
  };
}

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
    if (!get && !resource.load) return;
    // The row may be stale or abridged: edit the current record.
    setLoading(true);
    const row = state.record;
    (resource.load ? resource.load(row) : call(get!, { query: { [rowKey]: row[rowKey] } as never }))
      .then((fresh) => {
        setRecord(fresh as Values);
        form.setFieldsValue(recordToValues(resource, fresh as Values));
      })
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [state, form, resource, rowKey]);

  const ctx: FormFieldCtx = { mode, form, record, t: text.t };
  const bodyOf = (values: Values) => valuesToBody(resource, mode, values, record);

  const submit = async () => {
    const ep = mode === 'create' ? resource.api.add : resource.api.edit;
    if (!ep) return;
    const values = (await form.validateFields().catch(() => null)) as Values | null;
    if (!values) return;
    const body = bodyOf(form.getFieldsValue(true) as Values);
    const parsed = schema ? schema.safeParse(body) : { success: true as const, data: body };
    if (!parsed.success) return;
    const texts = resource.texts ?? {};
    if (mode === 'create' && texts.createConfirm) {
      const ok = await new Promise<boolean>((resolve) =>
        feedback.modal.confirm({
          title: text.t('common.systemPrompt'),
          content: text.t(texts.createConfirm!),
          okText: text.t('common.confirm'),
          cancelText: text.t('common.cancel'),
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        }),
      );
      if (!ok) return;
    }
    setSaving(true);
    try {
      await call(ep, { body: parsed.data as never }, { fieldErrors: true });
      feedback.message.success(text.t(texts.saved ?? 'common.success'));
      await queryClient.invalidateQueries({ queryKey: [resource.api.list.path] });
      // A saved record may be an option of some select (a new provider, a renamed role).
      void queryClient.invalidateQueries({ queryKey: remoteOptionsKey('', '').slice(0, 1) });
      onClose();
    } catch (err) {
      if (texts.saveFailed) feedback.message.error(text.t(texts.saveFailed));
      // A 400 or 409 that names a field was not toasted by the client: mark the field, or toast when the form has no such field.
      if (err instanceof ApiError && err.field) {
        const name = err.field.split('.')[0]!;
        if (fieldsFor(resource, mode, ctx).some((f) => f.key === name)) form.setFields([{ name, errors: [err.message] }]);
        else feedback.message.error(err.message);
      }
    } finally {
      setSaving(false);
    }
  };

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
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Spin spinning={loading}>
        <Form form={form} name={`${resource.name}-form`} layout="vertical" preserve={false}>
          <Row gutter={16}>
            {fieldsFor(resource, mode, ctx).map((def) => [
              def.section && (
                <Col key={`section-${def.key}`} span={24}>
                  <Divider titlePlacement="start" style={{ marginTop: 4 }}>
                    {text.t(def.section)}
                  </Divider>
                </Col>
              ),
              <Col key={def.key} span={def.span ?? span}>
                <Form.Item
                  name={def.key}
                  extra={def.extra?.(ctx) && text.t(def.extra(ctx)!)}
                  validateTrigger={def.validate ? ['onChange', 'onBlur'] : undefined}
                  label={text.label(def.key, def.label)}
                  required={def.required ?? isRequired(schema, def.key)}
                  valuePropName={def.kind === 'switch' || def.kind === 'checkbox' ? 'checked' : 'value'}
                  rules={[
                    {
                      validator: async () => {
                        const msg = fieldMessage(schema, text.lang, resource.name, def.key, bodyOf(form.getFieldsValue(true) as Values));
                        if (msg) throw new Error(msg);
                      },
                    },
                    ...(def.validate
                      ? [
                          asyncRule(
                            def,
                            ctx,
                            () => !fieldMessage(schema, text.lang, resource.name, def.key, bodyOf(form.getFieldsValue(true) as Values)),
                          ),
                        ]
                      : []),
                  ]}
                >
                  {def.kind === 'custom' && def.render ? (
                    def.render(ctx)
                  ) : (
                    <FormInput def={def} text={text} ctx={ctx} disabled={def.readOnlyOn === mode} />
                  )}
                </Form.Item>
              </Col>,
            ])}
          </Row>
        </Form>
      </Spin>
    </Modal>
  );
}
