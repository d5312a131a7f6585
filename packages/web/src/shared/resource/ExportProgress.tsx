import { Progress } from 'antd';
import type { ResourceText } from './labels';

/** Body of the export notification: a bar once the server reports a total, a waiting line before. */
export function ExportProgress({ text, done, total }: { text: ResourceText; done: number; total: number }) {
  if (total <= 0) return <Progress percent={0} status="active" format={() => text.t('kit.exportWaiting')} />;
  const percent = Math.min(100, Math.floor((done / total) * 100));
  return (
    <>
      <Progress percent={percent} status="active" />
      <div>{text.t('kit.exportProgress', { done, total })}</div>
    </>
  );
}
