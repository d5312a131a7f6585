import { Spin } from 'antd';
import { lazy, Suspense, type CSSProperties } from 'react';
import type { RichTextEditorProps } from './RichTextEditor';

// tiptap and ProseMirror (≈ 140 KB gzipped) and DOMPurify come only with a form or cell that
// shows rich text, not with every screen of the resource kit (issue 14 item 7).
const Editor = lazy(() => import('./RichTextEditor').then((m) => ({ default: m.RichTextEditor })));
const View = lazy(() => import('./RichTextView').then((m) => ({ default: m.RichTextView })));

export function LazyRichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Spin />}>
      <Editor {...props} />
    </Suspense>
  );
}

export function LazyRichTextView(props: { html: string; style?: CSSProperties; testId?: string }) {
  return (
    <Suspense fallback={<Spin size="small" />}>
      <View {...props} />
    </Suspense>
  );
}
