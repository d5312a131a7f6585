import type { MemberLevelDto } from '@csms/contract';
import { useTranslation } from 'react-i18next';
import { formatKwh, formatMoney } from '../../shared/format/units';

/** A level's basis, or its threshold with its unit (currency or kWh). */
export function Threshold({ row, part }: { row: MemberLevelDto; part: 'basis' | 'value' }) {
  const { t } = useTranslation();
  if (part === 'basis') return <>{t(`enums.memberBasis.${row.basis}`)}</>;
  return (
    <span data-threshold={row.threshold}>
      {row.basis === 'spend'
        ? t('memberLevel.money', { value: formatMoney(row.threshold) })
        : t('memberLevel.kwh', { value: formatKwh(row.threshold) })}
    </span>
  );
}
