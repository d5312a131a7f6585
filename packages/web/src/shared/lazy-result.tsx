import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';

// antd's Result carries large SVG pictures: fetched only when a failure is actually shown (issue 14 item 7).
const Result = lazy(() => import('antd/es/result'));

/** Until the picture arrives, the same words and buttons, plainly: a failure never waits for a chunk to say so. */
function Plain({ title, subTitle, extra }: { title?: ReactNode; subTitle?: ReactNode; extra?: ReactNode }) {
  return (
    <div style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div style={{ fontSize: 24 }}>{title}</div>
      {subTitle && <div style={{ marginTop: 8 }}>{subTitle}</div>}
      {extra && <div style={{ marginTop: 24 }}>{extra}</div>}
    </div>
  );
}

export function LazyResult(props: ComponentProps<typeof Result>) {
  return (
    <Suspense fallback={<Plain title={props.title} subTitle={props.subTitle} extra={props.extra} />}>
      <Result {...props} />
    </Suspense>
  );
}
