import { UploadOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../shared/auth/authorized';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { CarImportDialog } from './car-import-dialog';
import { carResource } from './car.resource';

/** Configuration → cars, with the batch import from the template. */
export default function CarPage() {
  const { t } = useTranslation();
  const [importing, setImporting] = useState(false);
  return (
    <Card
      variant="borderless"
      title={t('menu.carManage')}
      extra={
        <Authorized permi={['config:car:import']}>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="car-import">
            {t('car.import')}
          </Button>
        </Authorized>
      }
      styles={{ body: { padding: 0 } }}
    >
      <ResourcePage resource={carResource} />
      <CarImportDialog open={importing} onClose={() => setImporting(false)} />
    </Card>
  );
}
