import { UploadOutlined } from '@ant-design/icons';
import { type MaterialApplyDto, materialApi } from '@csms/contract';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../shared/auth/authorized';
import { OnceOpened } from '../../shared/resource/lazy-parts';
import { ResourceTabs, type ResourceTab } from '../../shared/resource/ResourceTabs';
import { ApplyFlowDialog, ApproveDialog, MaterialImportDialog } from './lazy-parts';
import { materialApplyResource, permiOf } from './material-apply.resource';
import { materialResource } from './material.resource';

/**
 * Work orders → Spare parts (spec §2 `/workOrder/sparePartsManage`; issue 17 item 4): the parts
 * catalogue with its template import, and the apply orders of work orders with their approval and flow chart.
 */
export default function SparePartsPage() {
  const [importing, setImporting] = useState(false);
  const [approving, setApproving] = useState<MaterialApplyDto | null>(null);
  const [flow, setFlow] = useState<MaterialApplyDto | null>(null);
  // Made once (a new resource would reset an open form), so it depends on nothing, not even `t`.
  const tabs = useMemo<ResourceTab[]>(
    () => [
      {
        key: 'parts',
        label: 'material.partsTab',
        resource: materialResource,
        extra: () => <ImportButton onClick={() => setImporting(true)} />,
      },
      { key: 'apply', label: 'material.applyTab', resource: materialApplyResource({ approve: setApproving, flow: setFlow }) },
    ],
    [],
  );
  return (
    <>
      <ResourceTabs tabs={tabs} />
      <OnceOpened open={importing}>
        <MaterialImportDialog open={importing} onClose={() => setImporting(false)} />
      </OnceOpened>
      <OnceOpened open={approving !== null}>
        <ApproveDialog row={approving} onClose={() => setApproving(null)} />
      </OnceOpened>
      <OnceOpened open={flow !== null}>
        <ApplyFlowDialog row={flow} onClose={() => setFlow(null)} />
      </OnceOpened>
    </>
  );
}

function ImportButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Authorized permi={permiOf(materialApi.import)}>
      <Button icon={<UploadOutlined />} onClick={onClick} data-testid="material-import">
        {t('material.import')}
      </Button>
    </Authorized>
  );
}
