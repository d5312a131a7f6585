import { api, type CardDto } from '@csms/contract';
import { useMemo, useState } from 'react';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { cardResource } from './card.resource';
import { MoneyDialog, type MoneyTarget } from './money-dialog';

const titles = { recharge: 'card.rechargeTitle', refund: 'card.refundTitle' };

type Open = { kind: 'recharge' | 'refund'; target: MoneyTarget } | null;

const target = (c: CardDto): MoneyTarget => ({ id: c.id, balanceCents: c.balanceCents, params: { cardNumber: c.cardNumber } });

/** User management → RFID cards. */
export default function CardPage() {
  const [open, setOpen] = useState<Open>(null);
  const resource = useMemo(
    () =>
      cardResource({
        recharge: (c) => setOpen({ kind: 'recharge', target: target(c) }),
        refund: (c) => setOpen({ kind: 'refund', target: target(c) }),
      }),
    [],
  );
  const kind = open?.kind ?? 'recharge';
  return (
    <>
      <ResourcePage resource={resource} />
      <MoneyDialog
        name="card"
        kind={kind}
        endpoint={kind === 'refund' ? api.card.refund : api.card.recharge}
        title={titles[kind]}
        target={open?.target ?? null}
        balanceOf={(data) => (data as CardDto).balanceCents}
        invalidate={[api.card.list.path, api.card.get.path]}
        onClose={() => setOpen(null)}
      />
    </>
  );
}
