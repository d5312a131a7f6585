import { invoiceIssue, type InvoiceDto, invoiceApi } from '@csms/contract';
import { Typography } from 'antd';
import { useMemo } from 'react';
import { formatMoney } from '../../shared/format/units';
import { ActionFormDialog } from '../../shared/resource/ActionFormDialog';
import { useResourceText } from '../../shared/resource/labels';
import { defineResource } from '../../shared/resource/types';
import { InvoiceItemsTable } from './finance-inputs';

/** `issue`'s form, declared for the kit: the invoice PDF, uploaded. */
function issueForm(row: InvoiceDto) {
  return defineResource({
    name: 'invoice',
    columns: [],
    api: { list: invoiceApi.list, add: invoiceApi.issue },
    formSchema: { create: invoiceIssue },
    texts: { saved: 'invoice.issued' },
    toBody: (values) => ({ ...values, id: row.id }),
    form: [{ key: 'fileName', kind: 'file', props: { limit: 1, fileType: ['pdf'], valueField: 'fileName' } }],
  });
}

/** Issue one invoice: what it covers, and the PDF to upload; the user is notified as he asked. */
export function IssueDialog({ row, onClose }: { row: InvoiceDto | null; onClose: () => void }) {
  if (!row) return null;
  return <OpenIssueDialog key={row.id} row={row} onClose={onClose} />;
}

function OpenIssueDialog({ row, onClose }: { row: InvoiceDto; onClose: () => void }) {
  const text = useResourceText('invoice');
  const { t } = text;
  const resource = useMemo(() => issueForm(row), [row]);
  return (
    <ActionFormDialog resource={resource} text={text} title={t('invoice.issueTitle', { id: row.id })} width={680} onClose={onClose}>
      <Typography.Paragraph type="secondary">
        {t(row.notifyType === 'sms' ? 'invoice.issueHintSms' : 'invoice.issueHint', {
          account: row.account,
          amount: formatMoney(row.amountCents),
          email: row.email,
          mobile: row.mobile,
        })}
      </Typography.Paragraph>
      <InvoiceItemsTable rows={row.items} />
    </ActionFormDialog>
  );
}
