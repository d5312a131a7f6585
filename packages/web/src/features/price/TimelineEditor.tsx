import { priceTiers, SLOTS_PER_DAY, type PriceTier } from '@csms/contract';
import { Button, Flex, Radio, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fillAll, paintRange, runsOf, slotTime, TIER_COLORS } from './slots';

export interface TimelineEditorProps {
  id?: string;
  value?: PriceTier[];
  onChange?: (slots: PriceTier[]) => void;
  /** The station's IANA zone the slots are in. */
  timeZone: string;
  /** The version in force, for the "copy from current" preset. */
  current?: readonly PriceTier[] | null;
}

const slotOf = (el: EventTarget | null): number | undefined => {
  const cell = el instanceof Element ? el.closest('[data-slot]') : null;
  const v = cell?.getAttribute('data-slot');
  return v === null || v === undefined ? undefined : Number(v);
};

/**
 * The day as 48 half-hour cells: pick a tier brush, then click a cell or drag across cells to paint
 * them. Every cell always holds a tier, so the day has no gaps and no overlaps. Keyboard: arrows
 * move, Space or Enter paints, Shift+arrow paints while moving, 1–4 pick the brush.
 */
export function TimelineEditor({ id, value, onChange, timeZone, current }: TimelineEditorProps) {
  const { t } = useTranslation();
  const slots = value && value.length === SLOTS_PER_DAY ? value : fillAll('flat');
  const [brush, setBrush] = useState<PriceTier>('peak');
  const [focused, setFocused] = useState(0);
  const drag = useRef<{ anchor: number; base: PriceTier[] } | null>(null);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    const end = () => {
      drag.current = null;
    };
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    return () => {
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
  }, []);

  const emit = (next: PriceTier[]) => {
    if (next.some((s, i) => s !== slots[i])) onChange?.(next);
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const i = slotOf(e.target);
    if (i === undefined || e.button > 0) return;
    e.preventDefault();
    // Touch captures the pointer to the first cell; release it so the cells under the finger get the moves.
    const el = e.target as Element;
    if (e.pointerId !== undefined && el.hasPointerCapture?.(e.pointerId)) el.releasePointerCapture(e.pointerId);
    drag.current = { anchor: i, base: slots };
    setFocused(i);
    emit(paintRange(slots, i, i, brush));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const i = slotOf(e.target);
    if (i !== undefined) emit(paintRange(drag.current.base, drag.current.anchor, i, brush));
  };

  const move = (to: number, paint: boolean) => {
    const i = Math.max(0, Math.min(SLOTS_PER_DAY - 1, to));
    setFocused(i);
    cells.current[i]?.focus();
    if (paint) emit(paintRange(slots, focused, i, brush));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const digit = Number(e.key);
    if (digit >= 1 && digit <= priceTiers.length) {
      setBrush(priceTiers[digit - 1]!);
      return;
    }
    const keys: Record<string, () => void> = {
      ArrowRight: () => move(focused + 1, e.shiftKey),
      ArrowLeft: () => move(focused - 1, e.shiftKey),
      Home: () => move(0, e.shiftKey),
      End: () => move(SLOTS_PER_DAY - 1, e.shiftKey),
      ' ': () => emit(paintRange(slots, focused, focused, brush)),
      Enter: () => emit(paintRange(slots, focused, focused, brush)),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  const tierName = (tier: PriceTier) => t(`enums.priceTier.${tier}`);
  return (
    <Flex vertical gap={10} id={id} data-testid="timeline-editor">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space wrap>
          <Typography.Text type="secondary">{t('price.editor.brush')}</Typography.Text>
          <Radio.Group
            name="price-brush"
            value={brush}
            onChange={(e) => setBrush(e.target.value as PriceTier)}
            optionType="button"
            buttonStyle="solid"
          >
            {priceTiers.map((tier, i) => (
              <Radio.Button key={tier} value={tier} title={`${i + 1}`}>
                <span data-testid={`brush-${tier}`}>
                  <span
                    aria-hidden
                    style={{
                      display: 'inline-block',
                      width: 10,
                      height: 10,
                      borderRadius: 2,
                      marginInlineEnd: 6,
                      background: TIER_COLORS[tier],
                    }}
                  />
                  {tierName(tier)}
                </span>
              </Radio.Button>
            ))}
          </Radio.Group>
        </Space>
        <Space wrap>
          <Typography.Text type="secondary">{t('price.editor.presets')}</Typography.Text>
          <Button size="small" onClick={() => emit(fillAll('flat'))} data-testid="preset-flat">
            {t('price.editor.allFlat')}
          </Button>
          <Button size="small" disabled={!current} onClick={() => current && emit([...current])} data-testid="preset-current">
            {t('price.editor.copyCurrent')}
          </Button>
        </Space>
      </Flex>
      <div
        role="group"
        aria-label={t('price.editor.timelineLabel', { zone: timeZone })}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onKeyDown={onKeyDown}
        style={{ display: 'flex', gap: 1, touchAction: 'none', userSelect: 'none' }}
      >
        {slots.map((tier, i) => (
          <button
            key={i}
            ref={(el) => {
              cells.current[i] = el;
            }}
            type="button"
            data-slot={i}
            data-tier={tier}
            tabIndex={i === focused ? 0 : -1}
            title={`${slotTime(i)}–${slotTime(i + 1)} ${tierName(tier)}`}
            aria-label={`${slotTime(i)}–${slotTime(i + 1)} ${tierName(tier)}`}
            onFocus={() => setFocused(i)}
            style={{
              flex: 1,
              minWidth: 8,
              height: 40,
              padding: 0,
              border: 'none',
              borderRadius: 2,
              cursor: 'crosshair',
              background: TIER_COLORS[tier],
              opacity: i % 2 === 0 ? 1 : 0.85,
              outlineOffset: 1,
            }}
          />
        ))}
      </div>
      <div style={{ position: 'relative', height: 16 }} aria-hidden>
        {Array.from({ length: 13 }, (_, k) => (
          <Typography.Text
            key={k}
            type="secondary"
            style={{
              position: 'absolute',
              left: `${(k / 12) * 100}%`,
              transform: k === 0 ? 'none' : k === 12 ? 'translateX(-100%)' : 'translateX(-50%)',
              fontSize: 11,
              whiteSpace: 'nowrap',
            }}
          >
            {slotTime(k * 4)}
          </Typography.Text>
        ))}
      </div>
      <Flex wrap gap={4} data-testid="timeline-runs">
        {runsOf(slots).map((r) => (
          <Tag key={r.from} color={TIER_COLORS[r.tier]} style={{ marginInlineEnd: 0 }}>
            {`${slotTime(r.from)}–${slotTime(r.to)} ${tierName(r.tier)}`}
          </Tag>
        ))}
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('price.editor.hint', { zone: timeZone })}
      </Typography.Text>
    </Flex>
  );
}
