import { Checkbox, DatePicker, Input, InputNumber, Switch } from 'antd';
import { LazyRichTextEditor as RichTextEditor } from '../richtext/lazy-rich-text';
import { FileUpload } from '../upload/FileUpload';
import { ImageUpload } from '../upload/ImageUpload';
import { DictSelect, OptionSelect, RemoteSelect } from './inputs';
import type { ResourceText } from './labels';
import type { FormFieldCtx, FormFieldDef } from './types';

export interface FormInputProps {
  def: FormFieldDef;
  text: ResourceText;
  ctx: FormFieldCtx;
  disabled?: boolean;
  /** Injected by Form.Item. */
  value?: never;
  onChange?: never;
}

/** The input for one declared form field; Form.Item injects value and onChange through `rest`. */
export function FormInput({ def, text, ctx, disabled, ...rest }: FormInputProps) {
  const field = text.label(def.key, def.label);
  const input = text.t('kit.inputPlaceholder', { field });
  const select = text.t('kit.selectPlaceholder', { field });
  const common = { ...rest, disabled, ...def.props };
  switch (def.kind) {
    case 'password':
      return <Input.Password placeholder={input} autoComplete="new-password" {...common} />;
    case 'textarea':
      return <Input.TextArea rows={3} placeholder={input} {...common} />;
    case 'richtext':
      return <RichTextEditor placeholder={text.t('richText.placeholder')} {...common} />;
    case 'number':
      return <InputNumber placeholder={input} style={{ width: '100%' }} {...common} />;
    case 'select':
      if (def.remote) return <RemoteSelect remote={def.remote} placeholder={select} {...common} />;
      return <OptionSelect options={def.options ?? []} placeholder={select} {...common} />;
    case 'dict':
      return <DictSelect dict={def.dict!} placeholder={select} {...common} />;
    case 'switch':
      return <Switch {...common} />;
    case 'checkbox':
      return <Checkbox {...common} />;
    case 'image':
      return <ImageUpload {...common} />;
    case 'file':
      return <FileUpload {...common} />;
    case 'date':
      return <DatePicker placeholder={select} style={{ width: '100%' }} {...common} />;
    case 'datetime':
      return <DatePicker showTime placeholder={select} style={{ width: '100%' }} {...common} />;
    case 'custom':
      return <>{def.render?.(ctx)}</>;
    default:
      return <Input placeholder={input} {...common} />;
  }
}
