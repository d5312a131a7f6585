import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, InputNumber } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { DATE_FORMAT } from './cells';
import { DayZoneNote } from './DayZoneNote';
import { DictSelect, OptionSelect, RemoteSelect } from './inputs';
import type { ResourceText } from './labels';
import type { SearchDef } from './types';

type Search = SearchDef<Record<string, unknown>>;
type Values = Record<string, unknown>;

const asDay = (v: unknown): Dayjs | undefined => (v === undefined || v === null || v === '' ? undefined : dayjs(String(v)));

/** The URL's query as the search form's values. */
export function queryToForm(search: Search[], query: Values): Values {
  const out: Values = {};
  for (const s of search) {
    if (s.kind === 'dateRange') {
      const [from, to] = [asDay(query[s.keys[0]]), asDay(query[s.keys[1]])];
      out[s.key] = from && to ? [from, to] : undefined;
    } else if (s.kind === 'date') out[s.key] = asDay(query[s.key]);
    // Dictionary values are strings; the query schema may have coerced one to a number (`status=1`).
    else if (s.kind === 'dict' && typeof query[s.key] === 'number') out[s.key] = String(query[s.key]);
    else out[s.key] = query[s.key];
  }
  return out;
}

/** The search form's values as query filters. */
export function formToQuery(search: Search[], values: Values): Values {
  const out: Values = {};
  for (const s of search) {
    const v = values[s.key];
    if (s.kind === 'dateRange') {
      const range = v as [Dayjs, Dayjs] | undefined;
      if (s.instant) {
        out[s.keys[0]] = range?.[0]?.startOf('day').toISOString();
        out[s.keys[1]] = range?.[1]?.endOf('day').toISOString();
        continue;
      }
      out[s.keys[0]] = range?.[0]?.format(s.format ?? DATE_FORMAT);
      out[s.keys[1]] = range?.[1]?.format(s.format ?? DATE_FORMAT);
    } else if (s.kind === 'date') out[s.key] = (v as Dayjs | undefined)?.format(DATE_FORMAT);
    else out[s.key] = typeof v === 'string' ? v.trim() || undefined : (v ?? undefined);
  }
  return out;
}

/** Form.Item injects value and onChange through `rest`. */
function SearchInput({ def, text, ...rest }: { def: Search; text: ResourceText }) {
  const field = text.label(def.key, def.label);
  const select = text.t('kit.selectPlaceholder', { field });
  switch (def.kind) {
    case 'dateRange':
      return <DatePicker.RangePicker {...rest} placeholder={[text.t('kit.startDate'), text.t('kit.endDate')]} />;
    case 'date':
      return <DatePicker {...rest} placeholder={select} />;
    case 'number':
      return <InputNumber {...rest} placeholder={text.t('kit.inputPlaceholder', { field })} style={{ width: 200 }} />;
    case 'dict':
      return <DictSelect {...rest} dict={def.dict!} placeholder={select} style={{ width: 200 }} />;
    case 'select':
      if (def.remote) return <RemoteSelect {...rest} remote={def.remote} placeholder={select} style={{ width: 200 }} />;
      return <OptionSelect {...rest} options={def.options ?? []} placeholder={select} style={{ width: 200 }} />;
    default:
      return <Input {...rest} allowClear placeholder={text.t('kit.inputPlaceholder', { field })} style={{ width: 200 }} />;
  }
}

export interface SearchBarProps {
  /** Prefix of the inputs' ids. */
  name: string;
  search: Search[];
  query: Values;
  text: ResourceText;
  onSearch: (filters: Values) => void;
  onReset: () => void;
}

/** The search form; its values follow the URL (back and shared links refill it). */
export function SearchBar({ name, search, query, text, onSearch, onReset }: SearchBarProps) {
  const [form] = Form.useForm();
  // Every field from the query, empty where it has none. Not resetFields first: antd remounts each input
  // on a reset (a field's control is keyed by its reset count), which on a cold list screen drew every
  // search input twice and cancelled the dictionaries its selects had asked for.
  useEffect(() => {
    form.setFieldsValue(queryToForm(search, query));
  }, [form, search, query]);
  return (
    <Form
      form={form}
      name={`${name}-search`}
      layout="inline"
      style={{ rowGap: 12, marginBottom: 12 }}
      onFinish={(v: Values) => onSearch(formToQuery(search, v))}
    >
      {search.map((def) => (
        <Form.Item
          key={def.key}
          name={def.key}
          label={text.label(def.key, def.label)}
          extra={def.kind === 'dateRange' && def.zoneDays ? <DayZoneNote query={query} /> : undefined}
        >
          <SearchInput def={def} text={text} />
        </Form.Item>
      ))}
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {text.t('common.search')}
        </Button>
        <Button style={{ marginLeft: 8 }} icon={<ReloadOutlined />} onClick={onReset}>
          {text.t('common.reset')}
        </Button>
      </Form.Item>
    </Form>
  );
}
