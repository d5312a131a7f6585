import type { InvoiceDto } from '@csms/contract';
import { useMemo, useState } from 'react';
import { OnceOpened } from '../../shared/resource/lazy-parts';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { IssueDialog } from './lazy-parts';
import { invoiceResource } from './invoice.resource';

/** Finance → invoices (`invoiceRecordManage`). */
export default function InvoicePage() {
  const [issuing, setIssuing] = useState<InvoiceDto | null>(null);
  // Made once (a new resource would reset an open form).
  const resource = useMemo(() => invoiceResource({ issue: setIssuing }), []);
  return (
    <>
      <ResourcePage resource={resource} />
      <OnceOpened open={issuing !== null}>
        <IssueDialog row={issuing} onClose={() => setIssuing(null)} />
      </OnceOpened>
    </>
  );
}
