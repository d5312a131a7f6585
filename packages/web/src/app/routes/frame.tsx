import { Spin } from 'antd';
import { lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScreenDef } from './registry';

const frameHeight = () => window.innerHeight - 94.5;

/** An embedded page (route meta `link`): an iframe under a loading mask, as tall as the window minus the header. */
export function InnerLink({ src }: { src: string }) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(true);
  const [height, setHeight] = useState(frameHeight);
  useEffect(() => {
    const onResize = () => setHeight(frameHeight());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return (
    <Spin spinning={loading} description={t('shell.frameLoading')}>
      <iframe src={src} title={src} style={{ width: '100%', height, border: 0, display: 'block' }} onLoad={() => setLoading(false)} />
    </Spin>
  );
}

/** A screen that embeds `url` (a menu entry pointing at another web page inside the console). */
export function frameScreen(def: Omit<ScreenDef, 'component'> & { url: string }): ScreenDef {
  const { url, ...rest } = def;
  return { ...rest, component: lazy(async () => ({ default: () => <InnerLink src={url} /> })) };
}
