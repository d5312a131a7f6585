import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Modal, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormDialogState } from './FormDialog';
import type { ResourceText } from './labels';
import { FormDialog, OnceOpened } from './lazy-parts';
import type { Resource } from './types';

/**
 * A small list kept in a dialog of its screen (a provider's vendor fault codes, the service areas):
 * a hint, the caller's tools and table, and the kit's add/edit dialog for one of its rows. Closing
 * is the only answer, so there is one button.
 */
export function ManageModal({
  open,
  title,
  hint,
  onClose,
  resource,
  text,
  editing,
  onEditingClose,
  children,
}: {
  open: boolean;
  title: string;
  hint: string;
  onClose: () => void;
  /** The row's form, and which row it edits (null: closed). */
  resource: Resource;
  text: ResourceText;
  editing: FormDialogState | null;
  onEditingClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={title}
      width={1100}
      onOk={onClose}
      onCancel={onClose}
      okText={t('common.close')}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>
      {children}
      <OnceOpened open={editing !== null}>
        <FormDialog resource={resource} text={text} state={editing} onClose={onEditingClose} />
      </OnceOpened>
    </Modal>
  );
}

/** The edit and delete buttons of such a list's rows, as the last column (none without the right to edit). */
export function editDeleteColumn<R>(t: (key: string) => string, canEdit: boolean, onEdit: (row: R) => void, onRemove: (row: R) => void) {
  if (!canEdit) return [];
  return [
    {
      key: '$actions',
      title: t('common.actions'),
      width: 170,
      render: (_: unknown, row: R) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(row)}>
            {t('common.edit')}
          </Button>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => onRemove(row)}>
            {t('common.delete')}
          </Button>
        </Space>
      ),
    },
  ];
}
