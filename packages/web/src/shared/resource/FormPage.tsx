import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Spin } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { FormFields } from './FormFields';
import { useResourceText } from './labels';
import type { Resource } from './types';
import { useResourceForm, type ResourceForm } from './useResourceForm';

export interface FormPageProps {
  resource: Resource;
  /** The record's id: an edit page; none: a new one. */
  id?: number | string;
  /** Where saving or cancelling leads (the list). */
  backTo: string;
  /** Values a new record starts with (keep the object stable: a new one resets the form). */
  initialValues?: Record<string, unknown>;
  /** Beside the fields (a map, a preview); given the form's state. Nothing: the fields take the whole width. */
  aside?: (form: ResourceForm) => ReactNode;
}

/**
 * A resource's add or edit form as a page of its own (spec: "Location/Station edit and new
 * pages"), for forms too big for a dialog. Same fields, validation and saving as the dialog.
 */
export function FormPage({ resource, id, backTo, initialValues, aside }: FormPageProps) {
  const text = useResourceText(resource.name);
  const navigate = useNavigate();
  const mode = id === undefined ? 'create' : 'edit';
  const rowKey = resource.rowKey ?? 'id';
  const record = useMemo(() => (id === undefined ? undefined : { [rowKey]: id }), [id, rowKey]);
  const f = useResourceForm({ resource, text, mode, record, active: true, initialValues });
  const side = aside?.(f);
  const createTitle = resource.texts?.createTitle;
  const title =
    mode === 'create' && createTitle
      ? text.t(createTitle)
      : text.title(mode === 'create' ? 'kit.addTitle' : 'kit.editTitle', { name: text.entity });
  const back = () => void navigate(backTo);

  return (
    <Card
      variant="borderless"
      title={title}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={back}>
          {text.t('kit.backToList')}
        </Button>
      }
    >
      <Spin spinning={f.loading}>
        <Row gutter={24}>
          <Col xs={24} xl={side ? 15 : 24}>
            <FormFields resource={resource} text={text} state={f} span={12} />
          </Col>
          {side && (
            <Col xs={24} xl={9}>
              {side}
            </Col>
          )}
        </Row>
        <Space style={{ marginTop: 8 }}>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={f.saving}
            onClick={() => void f.submit().then((saved) => saved && back())}
          >
            {text.t('common.save')}
          </Button>
          <Button onClick={back}>{text.t('common.cancel')}</Button>
        </Space>
      </Spin>
    </Card>
  );
}
