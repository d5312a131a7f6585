import { useMemo } from 'react';
import { ResourceTabs, type ResourceTab } from '../../shared/resource/ResourceTabs';
import { voucherTemplateResource } from './voucher-template.resource';
import { voucherResource } from './voucher.resource';

/** Operations → Vouchers (spec §2 `/operateManagement/voucherManage`; issue 19 item 3): templates, and the vouchers issued from them. */
export default function VoucherPage() {
  const tabs = useMemo<ResourceTab[]>(
    () => [
      { key: 'templates', label: 'voucherTemplate.tab', resource: voucherTemplateResource },
      { key: 'vouchers', label: 'voucher.tab', resource: voucherResource },
    ],
    [],
  );
  return <ResourceTabs tabs={tabs} />;
}
