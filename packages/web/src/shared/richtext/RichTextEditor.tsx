import {
  BoldOutlined,
  ClearOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { Placeholder } from '@tiptap/extensions';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Flex, Input, Popover, Select, Tooltip, theme } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../feedback';
import { checkFile } from '../upload/rules';
import { uploadFile } from '../upload/upload-request';
import './rich-text.css';

/** Spec §5: images in rich text are at most 5 MB. */
export const RICH_TEXT_IMAGE_MB = 5;
const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif'];
const LINK = /^(?:https?:\/\/|mailto:|tel:)/i;
/** antd has no quotation-mark icon: a typographic one stands in. */
const QUOTE_GLYPH = '\u201C';

export interface RichTextEditorProps {
  /** HTML; antd's Form.Item passes it. */
  value?: string | null;
  /** HTML, or '' when the editor holds nothing. */
  onChange?: (html: string) => void;
  disabled?: boolean;
  placeholder?: string;
  /** Largest image, MB. */
  imageMaxMb?: number;
  id?: string;
}

/**
 * Rich text for agreements and system messages, on tiptap (a maintained ProseMirror editor for
 * React 19). Images go through the upload endpoint like the image widgets and are inserted as
 * the stored file's URL; pasted or dropped data: images are refused. The server sanitises what
 * this writes (packages/server/src/lib/rich-text.ts) before it stores it.
 */
export function RichTextEditor({ value, onChange, disabled, placeholder, imageMaxMb = RICH_TEXT_IMAGE_MB, id }: RichTextEditorProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const emitted = useRef(value ?? '');
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        link: { openOnClick: false, autolink: true, isAllowedUri: (url) => LINK.test(url) },
      }),
      Image.configure({ allowBase64: false }),
      Placeholder.configure({ placeholder: placeholder ?? t('richText.placeholder') }),
    ],
    content: value ?? '',
    editable: !disabled,
    shouldRerenderOnTransaction: true,
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      // Transactions that change no content (selection, a trailing paragraph) leave the field untouched.
      if (html === emitted.current) return;
      emitted.current = html;
      onChange?.(html);
    },
  });

  // A value set from outside (form reset, record loaded) replaces the content.
  useEffect(() => {
    if (!editor || (value ?? '') === emitted.current) return;
    emitted.current = value ?? '';
    editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => editor?.setEditable(!disabled), [editor, disabled]);

  return (
    <div
      id={id}
      className="csms-rich-editor"
      data-testid="rich-text-editor"
      style={{
        border: `1px solid ${token.colorBorder}`,
        borderRadius: token.borderRadius,
        background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
      }}
    >
      {editor && !disabled && <Toolbar editor={editor} imageMaxMb={imageMaxMb} />}
      <EditorContent editor={editor} />
    </div>
  );
}

type Chain = ReturnType<Editor['chain']>;
interface Tool {
  /** `richText.<key>` labels it; `active` names the mark or node that lights it. */
  key: string;
  icon: ReactNode;
  active?: string;
  run: (c: Chain) => Chain;
}
const MARKS: Tool[] = [
  { key: 'bold', icon: <BoldOutlined />, active: 'bold', run: (c) => c.toggleBold() },
  { key: 'italic', icon: <ItalicOutlined />, active: 'italic', run: (c) => c.toggleItalic() },
  { key: 'underline', icon: <UnderlineOutlined />, active: 'underline', run: (c) => c.toggleUnderline() },
  { key: 'strike', icon: <StrikethroughOutlined />, active: 'strike', run: (c) => c.toggleStrike() },
];
const BLOCKS: Tool[] = [
  { key: 'bulletList', icon: <UnorderedListOutlined />, active: 'bulletList', run: (c) => c.toggleBulletList() },
  { key: 'orderedList', icon: <OrderedListOutlined />, active: 'orderedList', run: (c) => c.toggleOrderedList() },
  { key: 'blockquote', icon: <span aria-hidden>{QUOTE_GLYPH}</span>, active: 'blockquote', run: (c) => c.toggleBlockquote() },
];
const UNLINK: Tool = { key: 'unlink', icon: <DisconnectOutlined />, run: (c) => c.unsetLink() };
const HISTORY: Tool[] = [
  { key: 'clear', icon: <ClearOutlined />, run: (c) => c.unsetAllMarks().clearNodes() },
  { key: 'undo', icon: <UndoOutlined />, run: (c) => c.undo() },
  { key: 'redo', icon: <RedoOutlined />, run: (c) => c.redo() },
];
const IMAGE_TOOL = 'image';
const LINK_MARK = 'link';

function ToolButton({ label, icon, active, onClick }: { label: string; icon: ReactNode; active: boolean; onClick: () => void }) {
  return (
    <Tooltip title={label}>
      <Button size="small" type={active ? 'primary' : 'text'} icon={icon} aria-label={label} aria-pressed={active} onClick={onClick} />
    </Tooltip>
  );
}

function Toolbar({ editor, imageMaxMb }: { editor: Editor; imageMaxMb: number }) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const chain = () => editor.chain().focus();
  const tool = (x: Tool) => (
    <ToolButton
      key={x.key}
      label={t(`richText.${x.key}`)}
      icon={x.icon}
      active={x.active ? editor.isActive(x.active) : false}
      onClick={() => x.run(chain()).run()}
    />
  );
  const level = ([1, 2, 3] as const).find((l) => editor.isActive('heading', { level: l })) ?? 0;
  const levels = [
    { value: 0, label: t('richText.paragraph') },
    ...[1, 2, 3].map((l) => ({ value: l, label: `${t('richText.heading')} ${l}` })),
  ];

  async function insertImage(file: File) {
    const problem = checkFile('image', file, { limit: 1, fileSize: imageMaxMb, fileType: IMAGE_TYPES });
    if (problem) {
      feedback.message.error(`${t('richText.imageFailed')}: ${t(problem.key, problem.params)}`);
      return;
    }
    try {
      const reply = await uploadFile('image', file);
      chain().setImage({ src: reply.url, alt: reply.originalName }).run();
    } catch {
      feedback.message.error(t('richText.imageFailed'));
    }
  }

  return (
    <Flex wrap gap={2} align="center" style={{ padding: 4, borderBottom: '1px solid rgba(0,0,0,0.06)' }}>
      <Select
        size="small"
        variant="borderless"
        style={{ width: 96 }}
        aria-label={t('richText.heading')}
        value={level}
        onChange={(l: number) =>
          l === 0
            ? chain().setParagraph().run()
            : chain()
                .toggleHeading({ level: l as 1 | 2 | 3 })
                .run()
        }
        options={levels}
      />
      {MARKS.map(tool)}
      <Divider orientation="vertical" />
      {BLOCKS.map(tool)}
      <Divider orientation="vertical" />
      <LinkButton editor={editor} />
      {editor.isActive(LINK_MARK) && tool(UNLINK)}
      <ToolButton
        label={t('richText.image', { n: imageMaxMb })}
        icon={<PictureOutlined />}
        active={false}
        onClick={() => fileInput.current?.click()}
      />
      <input
        ref={fileInput}
        type="file"
        accept="image/png,image/jpeg,image/gif"
        data-testid="rich-text-image-input"
        aria-label={t(`richText.${IMAGE_TOOL}`, { n: imageMaxMb })}
        style={{ display: 'none' }}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void insertImage(file);
        }}
      />
      <Divider orientation="vertical" />
      {HISTORY.map(tool)}
    </Flex>
  );
}

function LinkButton({ editor }: { editor: Editor }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const valid = LINK.test(href.trim());
  const apply = () => {
    if (!valid) return;
    editor.chain().focus().extendMarkRange(LINK_MARK).setLink({ href: href.trim() }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      trigger="click"
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setHref((editor.getAttributes(LINK_MARK).href as string | undefined) ?? '');
      }}
      content={
        <Flex gap={4} style={{ width: 320 }} vertical>
          <Input
            autoFocus
            size="small"
            value={href}
            placeholder={t('richText.linkPlaceholder')}
            status={href && !valid ? 'error' : undefined}
            onChange={(e) => setHref(e.target.value)}
            onPressEnter={apply}
          />
          {href && !valid && <span style={{ color: '#ff4d4f', fontSize: 12 }}>{t('richText.linkInvalid')}</span>}
          <Button size="small" type="primary" disabled={!valid} onClick={apply}>
            {t('common.confirm')}
          </Button>
        </Flex>
      }
    >
      <Tooltip title={t('richText.link')}>
        <Button
          size="small"
          type={editor.isActive(LINK_MARK) ? 'primary' : 'text'}
          icon={<LinkOutlined />}
          aria-label={t('richText.link')}
        />
      </Tooltip>
    </Popover>
  );
}
