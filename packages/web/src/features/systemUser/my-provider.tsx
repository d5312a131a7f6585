import { LinkOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Space, Spin } from 'antd';
import { useMemo } from 'react';
import { FormFields } from '../../shared/resource/FormFields';
import { useResourceText } from '../../shared/resource/labels';
import { useResourceForm } from '../../shared/resource/useResourceForm';
import { providerResource } from './provider.resource';

/**
 * "My provider": the own provider's settings (contact, logo, agreements, mail) for a user who
 * sees no other provider, so has no provider list to open its edit form from. The same form and
 * edit call as that list's; the server scopes it to the caller's provider and keeps validity,
 * licences and parent with the super provider.
 */
export function MyProviderSettings({ providerId }: { providerId: number }) {
  const resource = useMemo(() => providerResource(false), []);
  const text = useResourceText('provider');
  const record = useMemo(() => ({ id: providerId }), [providerId]);
  const f = useResourceForm({ resource, text, mode: 'edit', record, active: true });
  const key = typeof f.record?.agreementKey === 'string' ? f.record.agreementKey : null;
  const open = (page: string) => void window.open(`/${page}/${key}`, '_blank', 'noopener');
  return (
    <div style={{ padding: 24 }}>
      <Spin spinning={f.loading}>
        <FormFields resource={resource} text={text} state={f} span={12} />
        <Space wrap>
          <Button type="primary" icon={<SaveOutlined />} loading={f.saving} onClick={() => void f.submit()}>
            {text.t('common.save')}
          </Button>
          {key && Boolean(f.record?.disclaimer) && (
            <Button icon={<LinkOutlined />} onClick={() => open('disclaimer')}>
              {text.t('provider.disclaimerPage')}
            </Button>
          )}
          {key && Boolean(f.record?.privacyAgreement) && (
            <Button icon={<LinkOutlined />} onClick={() => open('privacyAgreement')}>
              {text.t('provider.privacyPage')}
            </Button>
          )}
        </Space>
      </Spin>
    </div>
  );
}
