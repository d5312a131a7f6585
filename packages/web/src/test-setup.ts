import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n, initI18n } from './i18n';
import { polyfillDom } from './shared/resource/test-kit';

initI18n('en-US');
// jsdom lacks matchMedia, ResizeObserver and canvas, which antd asks for.
polyfillDom();
// Without vitest globals, Testing Library cannot register its own cleanup.
afterEach(cleanup);
// Tests that switch language start the next one in English again.
afterEach(() => i18n.changeLanguage('en-US'));
