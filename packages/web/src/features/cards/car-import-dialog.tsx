import { CAR_IMPORT_MAX_BYTES, carApi } from '@csms/contract';
import { ImportDialog } from '../../shared/import/ImportDialog';

/** Batch import of cars (spec §5, DESIGN.md §9) through the kit's template import. */
export function CarImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <ImportDialog
      open={open}
      onClose={onClose}
      texts="car"
      resource="carImport"
      keyField="plate"
      importEndpoint={carApi.import}
      templateEndpoint={carApi.importTemplate}
      templateName="car-import-template.xlsx"
      maxBytes={CAR_IMPORT_MAX_BYTES}
      invalidates={[carApi.list.path]}
    />
  );
}
