import { ArrowLeftOutlined, AuditOutlined, CloseCircleOutlined } from '@ant-design/icons';
import { type ApplyDto, applyApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Flex, Image, Result, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { call } from '../../shared/api/client';
import { Authorized } from '../../shared/auth/authorized';
import { renderCell } from '../../shared/resource/cells';
import { useResourceText } from '../../shared/resource/labels';
import type { ColumnDef } from '../../shared/resource/types';
import { applyColumns, permiOf } from './apply.resource';
import { ApproveDialog, RejectDialog } from './review-dialogs';

type Row = Record<string, unknown>;

const MORE: ColumnDef<Row>[] = [
  { key: 'address' },
  { key: 'remark' },
  { key: 'ip' },
  { key: 'username' },
  { key: 'validity', render: (v) => (v ? String(v) : '') },
  { key: 'authCount' },
  { key: 'expirationTime', kind: 'datetime' },
];

/** The applicant information page (spec §2): everything the applicant sent, the licence image, and the review. */
export default function ApplyInfoPage() {
  const text = useResourceText('apply');
  const { t } = text;
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const [approving, setApproving] = useState<ApplyDto | null>(null);
  const [rejecting, setRejecting] = useState<ApplyDto | null>(null);
  const { data, isLoading, isError } = useQuery({
    queryKey: [applyApi.get.path, id],
    queryFn: () => call(applyApi.get, { query: { id } }),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
  if (isError || !(id > 0)) return <Result status="404" title={t('errors.notFound')} />;
  if (isLoading || !data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const row = data as unknown as Row;
  const fields = [...(applyColumns as unknown as ColumnDef<Row>[]), ...MORE];
  return (
    <Card
      title={`${t('apply.infoTitle')} · ${data.referenceNo}`}
      extra={
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/apply/applyRecord')}>
            {t('apply.back')}
          </Button>
          {data.status === 'pending' && (
            <>
              <Authorized permi={permiOf(applyApi.approve)}>
                <Button type="primary" icon={<AuditOutlined />} onClick={() => setApproving(data)} data-testid="apply-approve">
                  {t('apply.approve')}
                </Button>
              </Authorized>
              <Authorized permi={permiOf(applyApi.reject)}>
                <Button danger icon={<CloseCircleOutlined />} onClick={() => setRejecting(data)} data-testid="apply-reject">
                  {t('apply.reject')}
                </Button>
              </Authorized>
            </>
          )}
        </Space>
      }
    >
      <Flex gap={24} wrap>
        <Descriptions
          style={{ flex: '1 1 480px' }}
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          data-testid="apply-info"
          items={fields.map((c) => ({ key: c.key, label: text.label(c.key), children: renderCell(c, row) }))}
        />
        <Flex vertical gap={8} align="center">
          <Typography.Text type="secondary">{t('fields.apply.licenseImage')}</Typography.Text>
          <Image width={240} src={data.licenseImageUrl} data-testid="apply-license" />
        </Flex>
      </Flex>
      <ApproveDialog row={approving} onClose={() => setApproving(null)} />
      <RejectDialog row={rejecting} onClose={() => setRejecting(null)} />
    </Card>
  );
}
