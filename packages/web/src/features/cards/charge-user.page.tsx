import { type ChargeUserDto, chargeUserApi } from '@csms/contract';
import { useMemo, useState } from 'react';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { chargeUserResource } from './charge-user.resource';
import { MoneyDialog, type MoneyTarget } from './money-dialog';

const titles = { recharge: 'chargeUser.rechargeTitle', refund: 'chargeUser.refundTitle' };

type Open = { kind: 'recharge' | 'refund'; target: MoneyTarget } | null;

const target = (u: ChargeUserDto): MoneyTarget => ({ id: u.id, balanceCents: u.mobileBalanceCents, params: { account: u.account } });

/** User management → charge users. */
export default function ChargeUserPage() {
  const [open, setOpen] = useState<Open>(null);
  const resource = useMemo(
    () =>
      chargeUserResource({
        recharge: (u) => setOpen({ kind: 'recharge', target: target(u) }),
        refund: (u) => setOpen({ kind: 'refund', target: target(u) }),
      }),
    [],
  );
  const kind = open?.kind ?? 'recharge';
  return (
    <>
      <ResourcePage resource={resource} />
      <MoneyDialog
        name="chargeUser"
        kind={kind}
        endpoint={kind === 'refund' ? chargeUserApi.refund : chargeUserApi.recharge}
        title={titles[kind]}
        target={open?.target ?? null}
        balanceOf={(data) => (data as ChargeUserDto).mobileBalanceCents}
        invalidate={[chargeUserApi.list.path, chargeUserApi.get.path]}
        onClose={() => setOpen(null)}
      />
    </>
  );
}
