import { flattenMenus } from '@csms/contract';
import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { resources } from '../i18n/resources';

const locales = ['zh-CN', 'en-US'] as const;

describe('shell catalogues', () => {
  it('title every menu node and the dashboard in both languages', () => {
    for (const lng of locales) {
      for (const name of ['dashboard', ...flattenMenus().map((n) => n.name)]) {
        expect(i18n.exists(`menu.${name}`, { lng }), `${lng} menu.${name}`).toBe(true);
      }
    }
  });

  it('use the spec texts', () => {
    const zh = resources['zh-CN'].translation;
    expect(zh.auth.permiEmpty).toBe('请设置操作权限标签值');
    expect(zh.auth.roleEmpty).toBe('请设置角色权限标签值');
    expect(zh.shell.frameLoading).toBe('正在加载页面，请稍候！');
    expect(zh.shell.languageSwitched).toBe('语言切换成功');
    expect(resources['en-US'].translation.shell.languageSwitched).toBe('Switch Language Success');
    expect(zh.auth.pwdChanged).toBe('密码重置成功，请重新登录');
    expect(zh.menu.organizationManage).toBe('组织管理');
    expect(resources['en-US'].translation.menu.organizationManage).toBe('Organisations');
  });
});
