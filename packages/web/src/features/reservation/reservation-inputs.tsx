import { useMemo } from 'react';
import { chargeUserOptions } from '../../shared/options/charge-user-options';
import { ChosenConnectorField, ChosenPointField, type FieldValue } from '../../shared/options/chosen-point-fields';
import { useChosenPoint } from '../../shared/options/station-point-options';
import { RemoteSelect } from '../../shared/resource/inputs';
import type { FormFieldCtx } from '../../shared/resource/types';

/** One point of the chosen station; choosing another puts the connector back to "any". */
export function ReservePointField(ctx: FormFieldCtx & FieldValue<string>) {
  return (
    <ChosenPointField
      {...ctx}
      chooseStationFirst="reservation.chooseStationFirst"
      fieldKey="fields.reservation.serialNumber"
      onPicked={() => ctx.form.setFieldValue('connectorNo', 0)}
      testId="reserve-point"
    />
  );
}

/** "Any connector" (0, the charger picks) or one of the chosen point's. */
export function ReserveConnectorField(ctx: FormFieldCtx & FieldValue<number>) {
  return (
    <ChosenConnectorField
      {...ctx}
      zeroLabel="enums.anyConnector.0"
      choosePointFirst="reservation.choosePointFirst"
      testId="reserve-connector"
    />
  );
}

/** The charge user, among the chosen point's provider's (the server refuses another provider's). */
export function ReserveUserField({ form, t, value, onChange, id }: FormFieldCtx & FieldValue<number>) {
  const { point } = useChosenPoint(form);
  const providerId = point?.providerId;
  const remote = useMemo(() => chargeUserOptions(providerId), [providerId]);
  return (
    <RemoteSelect
      id={id}
      remote={remote}
      value={value}
      onChange={onChange}
      placeholder={t('kit.selectPlaceholder', { field: t('fields.reservation.chargeUserId') })}
      data-testid="reserve-user"
    />
  );
}
