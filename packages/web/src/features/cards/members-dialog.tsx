import { UserDeleteOutlined } from '@ant-design/icons';
import { pageSizes, type ChargeUserDto, type UserGroupDto, userGroupApi, chargeUserApi } from '@csms/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../shared/api/client';
import { Authorized } from '../../shared/auth/authorized';
import { DictTag } from '../../shared/dict/DictTag';
import { feedback } from '../../shared/feedback';
import { confirmThenCall } from '../../shared/resource/actions';
import { useResourceText } from '../../shared/resource/labels';
import { formatMoney } from '../../shared/format/units';
import { ChargeUserSelect } from './inputs';

const MEMBERS_PERMI = 'user:group:members';

/** A group's members: list them, put charge users of the group's provider in, take them out. */
export function MembersDialog({ group, onClose }: { group: UserGroupDto | null; onClose: () => void }) {
  const text = useResourceText('chargeUser');
  const { t } = text;
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ page: 1, limit: 10 });
  const [adding, setAdding] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const members = useQuery({
    queryKey: [userGroupApi.members.path, group?.id, page],
    queryFn: ({ signal }) => call(userGroupApi.members, { query: { id: group!.id, ...page } }, { signal }),
    enabled: group !== null,
    placeholderData: keepPreviousData,
  });
  if (!group) return null;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [userGroupApi.members.path] });
    void queryClient.invalidateQueries({ queryKey: [userGroupApi.list.path] });
    void queryClient.invalidateQueries({ queryKey: [chargeUserApi.list.path] });
  };
  const add = async () => {
    if (adding.length === 0) return;
    setBusy(true);
    try {
      await call(userGroupApi.addMembers, { body: { id: group.id, chargeUserIds: adding } });
      feedback.message.success(t('userGroup.membersAdded'));
      setAdding([]);
      refresh();
    } catch {
      // The client showed the server's reason.
    } finally {
      setBusy(false);
    }
  };
  const remove = (u: ChargeUserDto) =>
    confirmThenCall(
      text,
      {
        content: 'userGroup.removeMemberConfirm',
        params: { account: u.account, name: group.name },
        success: 'userGroup.memberRemoved',
        onOk: () => call(userGroupApi.removeMembers, { body: { id: group.id, chargeUserIds: [u.id] } }),
      },
      refresh,
    );

  return (
    <Modal open title={t('userGroup.membersTitle', { name: group.name })} width={900} footer={null} onCancel={onClose} destroyOnHidden>
      <Authorized permi={[MEMBERS_PERMI]}>
        <Flex gap={8} style={{ marginBottom: 4 }}>
          <div style={{ flex: 1 }}>
            <ChargeUserSelect
              multiple
              providerId={group.providerId}
              value={adding}
              onChange={(v) => setAdding(Array.isArray(v) ? v : [])}
              placeholder={t('userGroup.addMembersPlaceholder')}
            />
          </div>
          <Button type="primary" loading={busy} disabled={adding.length === 0} onClick={() => void add()} data-testid="add-members">
            {t('userGroup.addMembers')}
          </Button>
        </Flex>
        <Typography.Paragraph type="secondary">{t('userGroup.moveHint')}</Typography.Paragraph>
      </Authorized>
      <Table<ChargeUserDto>
        size="small"
        rowKey="id"
        loading={members.isFetching}
        dataSource={members.data?.list ?? []}
        scroll={{ y: 400 }}
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: members.data?.total ?? 0,
          pageSizeOptions: pageSizes.map(String),
          showTotal: (total) => t('kit.total', { total }),
          onChange: (p, limit) => setPage({ page: p, limit }),
        }}
        columns={[
          { key: 'account', dataIndex: 'account', title: text.label('account') },
          { key: 'phone', dataIndex: 'phone', title: text.label('phone') },
          {
            key: 'userType',
            dataIndex: 'userType',
            title: text.label('userType'),
            render: (v: string) => <DictTag type="chargeUserType" value={v} />,
          },
          { key: 'cardBalanceCents', dataIndex: 'cardBalanceCents', title: text.label('cardBalanceCents'), render: formatMoney },
          {
            key: 'status',
            dataIndex: 'status',
            title: text.label('status'),
            render: (v: number) => <DictTag type="userStatus" value={v} />,
          },
          {
            key: '$actions',
            title: t('common.actions'),
            width: 180,
            render: (_: unknown, u) => (
              <Authorized permi={[MEMBERS_PERMI]}>
                <Space>
                  <Button type="link" size="small" danger icon={<UserDeleteOutlined />} onClick={() => remove(u)}>
                    {t('userGroup.removeMember')}
                  </Button>
                </Space>
              </Authorized>
            ),
          },
        ]}
      />
    </Modal>
  );
}
