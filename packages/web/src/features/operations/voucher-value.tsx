import type { VoucherDto, VoucherTemplateDto } from '@csms/contract';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/format/units';

/** A voucher's kind, or its value: an amount in currency, or a percent of the service fee. */
export function VoucherValue({ row, part }: { row: Pick<VoucherTemplateDto | VoucherDto, 'kind' | 'value'>; part: 'kind' | 'value' }) {
  const { t } = useTranslation();
  if (part === 'kind') return <>{t(`enums.voucherKind.${row.kind}`)}</>;
  return (
    <span data-voucher-value={row.value}>
      {row.kind === 'amount' ? formatMoney(row.value) : t('voucher.percent', { value: row.value })}
    </span>
  );
}
