import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n, initI18n } from './i18n';
import { polyfillDom } from './shared/resource/test-kit';

initI18n('en-US');
// jsdom lacks matchMedia, ResizeObserver and canvas, which antd asks for.
polyfillDom();
// After hooks run last-registered first: unmount (cleanup), then reset the language, so the
// reset never re-renders a mounted tree after its test (or after jsdom is gone).
afterEach(() => i18n.changeLanguage('en-US'));
afterEach(cleanup);
