import { useQueryClient } from '@tanstack/react-query';
import { Form } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, call } from '../api/client';
import { feedback } from '../feedback';
import { fieldsFor, recordToValues, schemaOf, valuesToBody, type Mode } from './form-values';
import { remoteOptionsKey } from './inputs';
import type { ResourceText } from './labels';
import type { FormFieldCtx, Resource } from './types';

type Values = Record<string, unknown>;

export interface ResourceFormOptions {
  resource: Resource;
  text: ResourceText;
  mode: Mode;
  /** The record to edit as the list had it (refreshed from `api.get` or `resource.load`). */
  record?: Values;
  /** False while the form is not shown (a closed dialog): nothing loads. */
  active: boolean;
  /** Values a new record starts with (else the resource's `initialValues`). */
  initialValues?: Values;
}

/**
 * The state behind a resource's add or edit form, wherever it is shown (dialog or page): the
 * current record, validation with the contract's schema, the confirm, the call, the server's
 * field errors on their fields, the success toast and the list refresh.
 */
export function useResourceForm({ resource, text, mode, record: initial, active, initialValues }: ResourceFormOptions) {
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [loading, setLoading] = useState(false);
  const [record, setRecord] = useState<Values | undefined>(initial);
  const schema = schemaOf(resource, mode);
  const rowKey = resource.rowKey ?? 'id';

  useEffect(() => {
    if (!active) return;
    form.resetFields();
    setRecord(initial);
    const start = initialValues ?? resource.initialValues?.();
    if (mode === 'create' && start) form.setFieldsValue(start);
    if (mode !== 'edit' || !initial) return;
    form.setFieldsValue(recordToValues(resource, initial));
    const get = resource.api.get;
    if (!get && !resource.load) return;
    // The row may be stale or abridged: edit the current record.
    setLoading(true);
    let live = true;
    (resource.load ? resource.load(initial) : call(get!, { query: { [rowKey]: initial[rowKey] } as never }))
      .then((fresh) => {
        if (!live) return;
        setRecord(fresh as Values);
        form.setFieldsValue(recordToValues(resource, fresh as Values));
      })
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [active, initial, mode, form, resource, rowKey, initialValues]);

  const ctx: FormFieldCtx = { mode, form, record, t: text.t };
  const bodyOf = useCallback((values: Values) => valuesToBody(resource, mode, values, record), [resource, mode, record]);

  /** Validates and saves; resolves true when the record was saved. */
  const submit = async (): Promise<boolean> => {
    const ep = mode === 'create' ? resource.api.add : resource.api.edit;
    if (!ep) return false;
    const values = (await form.validateFields().catch(() => null)) as Values | null;
    if (!values) return false;
    const body = bodyOf(form.getFieldsValue(true) as Values);
    const parsed = schema ? schema.safeParse(body) : { success: true as const, data: body };
    if (!parsed.success) return false;
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
      if (!ok) return false;
    }
    setSaving(true);
    try {
      const saved = await call(ep, { body: parsed.data as never }, { fieldErrors: true });
      feedback.message.success(text.t(texts.saved ?? 'common.success'));
      await queryClient.invalidateQueries({ queryKey: [resource.api.list.path] });
      if (resource.api.get) void queryClient.invalidateQueries({ queryKey: [resource.api.get.path] });
      // A saved record may be an option of some select (a new provider, a renamed role).
      void queryClient.invalidateQueries({ queryKey: remoteOptionsKey('', '').slice(0, 1) });
      resource.onSaved?.(saved, mode);
      return true;
    } catch (err) {
      if (texts.saveFailed) feedback.message.error(text.t(texts.saveFailed));
      // A 400 or 409 that names a field was not toasted by the client: mark the field, or toast when the form has no such field.
      if (err instanceof ApiError && err.field) {
        const name = err.field.split('.')[0]!;
        if (fieldsFor(resource, mode, ctx).some((f) => f.key === name)) form.setFields([{ name, errors: [err.message] }]);
        else feedback.message.error(err.message);
      }
      return false;
    } finally {
      setSaving(false);
    }
  };

  return { form, ctx, schema, bodyOf, record, loading, saving, submit };
}

export type ResourceForm = ReturnType<typeof useResourceForm>;
