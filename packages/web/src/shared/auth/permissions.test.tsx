import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Authorized } from './authorized';
import { hasPermiIn, hasRoleIn } from './permissions';
import { setSession } from './session';
import { defaultPasswordPolicy, type UserInfo } from '@csms/contract';

const user = (roles: string[], permissions: string[]): UserInfo => ({
  user: { id: 1, username: 'u', name: null, avatar: null, phone: null, email: null, lastLoginTime: null },
  roles,
  roleName: null,
  rolePaths: ['/dashboard'],
  permissions,
  providerId: 1,
  providerName: 'P',
  providerType: 'common',
  logoPath: null,
  isShowProvider: false,
  passwordPolicy: defaultPasswordPolicy,
});

describe('permission helpers', () => {
  const op = user(['operator'], ['system:organization:list', 'system:organization:add']);

  it('throw on an empty list with the spec messages', () => {
    expect(() => hasPermiIn(op, [])).toThrow('Please set the operation permission values');
    expect(() => hasRoleIn(op, [])).toThrow('Please set the role permission values');
    expect(() => hasPermiIn(null, [])).toThrow();
  });

  it('allow nothing before the info is loaded', () => {
    expect(hasPermiIn(null, 'system:organization:list')).toBe(false);
    expect(hasRoleIn(null, 'operator')).toBe(false);
  });

  it('check exact permissions in any and all modes', () => {
    expect(hasPermiIn(op, 'system:organization:list')).toBe(true);
    expect(hasPermiIn(op, ['system:organization:remove', 'system:organization:add'])).toBe(true);
    expect(hasPermiIn(op, ['system:organization:remove', 'system:organization:add'], 'all')).toBe(false);
    expect(hasPermiIn(op, ['system:organization:list', 'system:organization:add'], 'all')).toBe(true);
    expect(hasRoleIn(op, ['operator', 'auditor'], 'all')).toBe(false);
  });

  it('let the wildcard and the admin role pass', () => {
    expect(hasPermiIn(user(['operator'], ['*:*:*']), ['system:log:export'], 'all')).toBe(true);
    expect(hasPermiIn(user(['admin'], []), 'system:log:export')).toBe(true);
    expect(hasRoleIn(user(['admin'], []), 'auditor')).toBe(true);
  });
});

describe('<Authorized>', () => {
  afterEach(() => {
    cleanup();
    setSession(null);
  });

  it('renders children only when the check passes', () => {
    const { rerender } = render(<Authorized permi={['system:log:list']}>shown</Authorized>);
    expect(screen.queryByText('shown')).toBeNull();
    setSession(user(['operator'], ['system:log:list']));
    rerender(<Authorized permi={['system:log:list']}>shown</Authorized>);
    expect(screen.getByText('shown')).toBeTruthy();
    rerender(
      <Authorized permi={['system:log:list']} role={['auditor']}>
        shown
      </Authorized>,
    );
    expect(screen.queryByText('shown')).toBeNull();
  });
});
