import { Col, Divider, Form, Row, type FormRule } from 'antd';
import { fieldMessage, fieldsFor, isRequired } from './form-values';
import { FormInput } from './FormInput';
import type { ResourceText } from './labels';
import type { FormFieldCtx, FormFieldDef, Resource } from './types';
import type { ResourceForm } from './useResourceForm';

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

export interface FormFieldsProps {
  resource: Resource;
  text: ResourceText;
  state: Pick<ResourceForm, 'form' | 'ctx' | 'schema' | 'bodyOf'>;
  /** Column span of a field that declares none (12 in a wide form, 24 in a narrow one). */
  span: 12 | 24;
}

/** The declared fields of a resource's form, each validated with the contract's schema (the server's messages). */
export function FormFields({ resource, text, state, span }: FormFieldsProps) {
  const { form, ctx, schema, bodyOf } = state;
  const mode = ctx.mode;
  // Fields shown by another field's value (`visible`) appear and go as it changes.
  Form.useWatch([], { form, preserve: true });
  const messageOf = (key: string) => fieldMessage(schema, text.lang, resource.name, key, bodyOf(form.getFieldsValue(true) as Values));
  return (
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
                    const msg = messageOf(def.key);
                    if (msg) throw new Error(msg);
                  },
                },
                ...(def.validate ? [asyncRule(def, ctx, () => !messageOf(def.key))] : []),
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
  );
}
