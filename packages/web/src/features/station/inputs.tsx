import { stationAmenities } from '@csms/contract';
import { Checkbox, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';

const HHMM = 'HH:mm';

/** `HH:mm` as today's time (parsing by format would need a dayjs plugin). */
function toDay(v: string) {
  const [h = 0, m = 0] = v.split(':').map(Number);
  return dayjs().hour(h).minute(m).second(0).millisecond(0);
}

/** An `HH:mm` string edited with a time picker; empty clears it. Form.Item injects value and onChange. */
export function TimeInput({
  id,
  value,
  onChange,
  placeholder,
}: {
  id?: string;
  value?: string;
  onChange?: (v: string) => void;
  placeholder?: string;
}) {
  return (
    <TimePicker
      id={id}
      format={HHMM}
      minuteStep={5}
      needConfirm={false}
      placeholder={placeholder}
      style={{ width: '100%' }}
      value={value && /^\d{2}:\d{2}$/.test(value) ? toDay(value) : null}
      onChange={(d) => onChange?.(d ? d.format(HHMM) : '')}
    />
  );
}

/** The station's amenities as checkboxes, labelled by the vocabulary. */
export function AmenitiesInput({ id, value, onChange }: { id?: string; value?: string[]; onChange?: (v: string[]) => void }) {
  const { t } = useTranslation();
  return (
    <div id={id}>
      <Checkbox.Group
        value={value ?? []}
        onChange={(v) => onChange?.(v as string[])}
        options={stationAmenities.map((a) => ({ value: a, label: t(`enums.amenity.${a}`) }))}
      />
    </div>
  );
}
