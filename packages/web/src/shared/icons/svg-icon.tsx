import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { createElement, type ReactElement } from 'react';

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function draw(node: AbstractNode, key?: number): ReactElement {
  const attrs = Object.fromEntries(Object.entries(node.attrs).map(([k, v]) => [camel(k), v]));
  return createElement(node.tag, { key, ...attrs }, ...(node.children ?? []).map(draw));
}

/**
 * One of antd's icons (their SVG definitions, @ant-design/icons-svg) drawn without antd's icon
 * component, for the sign-in page, which loads no antd code (issue 14 item 7).
 */
export function SvgIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  if (typeof icon.icon === 'function') throw new Error(`SvgIcon: ${icon.name} is a two-tone icon`);
  const { attrs, children } = icon.icon;
  return (
    <span role="img" aria-hidden="true" className={className ?? 'csms-icon'}>
      <svg {...attrs} width="1em" height="1em" fill="currentColor">
        {(children ?? []).map(draw)}
      </svg>
    </span>
  );
}
