import { MATERIAL_IMPORT_MAX_BYTES, materialApi } from '@csms/contract';
import { ImportDialog } from '../../shared/import/ImportDialog';

/**
 * Batch import of spare parts through the kit's template import (the car import's rules): new parts
 * numbers are added, the count of a known one goes onto its stock.
 */
export function MaterialImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <ImportDialog
      open={open}
      onClose={onClose}
      texts="material"
      resource="materialImport"
      keyField="partsNumber"
      importEndpoint={materialApi.import}
      templateEndpoint={materialApi.importTemplate}
      templateName="spare-parts-import-template.xlsx"
      maxBytes={MATERIAL_IMPORT_MAX_BYTES}
      invalidates={[materialApi.list.path]}
    />
  );
}
