import { warningRuleBounds, warningRulesSave, type WarningRulesDto, warnApi } from '@csms/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Flex, Modal, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { call } from '../../shared/api/client';
import { providerOptions } from '../../shared/options/provider-options';
import { formatDateTime } from '../../shared/resource/cells';
import { RemoteSelect } from '../../shared/resource/inputs';
import { ActionFormDialog } from '../../shared/resource/ActionFormDialog';
import { useResourceText } from '../../shared/resource/labels';
import { defineResource } from '../../shared/resource/types';

const keys = Object.keys(warningRuleBounds) as (keyof typeof warningRuleBounds)[];

/** The rules' form for one provider, declared for the kit (labels `fields.warn.*`, validated by `warningRulesSave`). */
function rulesForm(rules: WarningRulesDto, onSaved: () => void) {
  return defineResource({
    name: 'warn',
    api: { list: warnApi.list, add: warnApi.saveRules },
    columns: [],
    formSchema: { create: warningRulesSave },
    form: keys.map((key) => ({
      key,
      kind: 'number' as const,
      props: { step: 1, style: { width: 200 } },
      required: false,
    })),
    initialValues: () => Object.fromEntries(keys.map((k) => [k, rules[k]])),
    // An empty threshold is a rule turned off.
    toBody: (body) => ({ ...Object.fromEntries(keys.map((k) => [k, null])), ...body, providerId: rules.providerId }),
    texts: { saved: 'warn.rulesSaved' },
    onSaved,
  });
}

/** The rules of one provider in the kit's form, saved by `saveRules`. */
function RulesModal({ rules, onProvider, onClose }: { rules: WarningRulesDto; onProvider: (id: number) => void; onClose: () => void }) {
  const text = useResourceText('warn');
  const { t } = text;
  const queryClient = useQueryClient();
  const resource = useMemo(
    () =>
      rulesForm(rules, () => {
        void queryClient.invalidateQueries({ queryKey: [warnApi.rules.path] });
        void queryClient.invalidateQueries({ queryKey: [warnApi.searchStationWeather.path] });
      }),
    [rules, queryClient],
  );
  return (
    <ActionFormDialog resource={resource} text={text} title={t('warn.rulesTitle')} width={560} onClose={onClose}>
      <Typography.Paragraph type="secondary">{t('warn.rulesHint')}</Typography.Paragraph>
      <Flex align="center" gap={8} style={{ marginBottom: 12 }}>
        <Typography.Text>{t('warn.provider')}</Typography.Text>
        <RemoteSelect
          remote={providerOptions}
          value={rules.providerId}
          allowClear={false}
          onChange={(v: unknown) => typeof v === 'number' && onProvider(v)}
          style={{ width: 260 }}
          data-testid="warn-rules-provider"
        />
      </Flex>
      <Typography.Paragraph type="secondary" data-testid="warn-rules-origin">
        {rules.isDefault
          ? t('warn.rulesDefault')
          : t('warn.rulesUpdated', { name: rules.updatedByName ?? '', time: formatDateTime(rules.updateTime) })}
      </Typography.Paragraph>
    </ActionFormDialog>
  );
}

/** The warning rules of the caller's provider, or of another one it chooses among those it sees. */
export function RulesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  // The caller's own provider until another is chosen.
  const { data: rules } = useQuery({
    queryKey: [warnApi.rules.path, chosen],
    queryFn: () => call(warnApi.rules, { query: chosen === undefined ? {} : { providerId: chosen } }),
    enabled: open,
  });
  if (!open) return null;
  if (!rules || (chosen !== undefined && rules.providerId !== chosen))
    return (
      <Modal open footer={null} onCancel={onClose} width={560}>
        <Spin />
      </Modal>
    );
  return <RulesModal key={`${rules.providerId}:${rules.updateTime ?? ''}`} rules={rules} onProvider={setChosen} onClose={onClose} />;
}
