import { type CardDto, cardApi } from '@csms/contract';
import { Card } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../shared/api/client';
import { ReadCardButton } from '../../shared/cardReader';
import { feedback } from '../../shared/feedback';
import { ResourcePage } from '../../shared/resource/ResourcePage';
import { toSearchParams } from '../../shared/resource/url-query';
import { cardResource } from './card.resource';
import { MoneyDialog, type MoneyTarget } from './money-dialog';

const titles = { recharge: 'card.rechargeTitle', refund: 'card.refundTitle' };

type Open = { kind: 'recharge' | 'refund'; target: MoneyTarget } | null;

const target = (c: CardDto): MoneyTarget => ({ id: c.id, balanceCents: c.balanceCents, params: { cardNumber: c.cardNumber } });

/** User management → RFID cards; "Find by reader" lists the card on the reader (spec §1: read). */
export default function CardPage() {
  const { t } = useTranslation();
  const [, setSearchParams] = useSearchParams();
  const [open, setOpen] = useState<Open>(null);
  const findByReader = async (uid: string) => {
    setSearchParams(toSearchParams({ physicalId: uid }));
    const found = await call(cardApi.list, { query: { page: 1, limit: 10, physicalId: uid } }, { silent: true }).catch(() => null);
    if (found && found.total === 0) feedback.message.info(t('card.notFoundByReader', { uid }));
  };
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
    <Card
      variant="borderless"
      title={t('menu.cardManage')}
      extra={<ReadCardButton label={t('card.findByReader')} testId="find-by-reader" onRead={(uid) => void findByReader(uid)} />}
      styles={{ body: { padding: 0 } }}
    >
      <ResourcePage resource={resource} />
      <MoneyDialog
        name="card"
        kind={kind}
        endpoint={kind === 'refund' ? cardApi.refund : cardApi.recharge}
        title={titles[kind]}
        target={open?.target ?? null}
        balanceOf={(data) => (data as CardDto).balanceCents}
        invalidate={[cardApi.list.path, cardApi.get.path]}
        onClose={() => setOpen(null)}
      />
    </Card>
  );
}
