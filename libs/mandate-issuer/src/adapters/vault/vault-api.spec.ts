import { decodeVaultHandle, encodeVaultHandle, parseVaultLogin, vaultLoginPath } from './vault-api';

describe('parseVaultLogin', () => {
  const auth = {
    client_token: 'hvs.abcdefghijklmnopqrstuvwx',
    accessor: 'acc123',
    policies: ['default'],
    lease_duration: 300,
    renewable: true,
    token_type: 'service',
  };

  it('reads the documented auth block of a login answer', () => {
    expect(parseVaultLogin({ auth })).toEqual({ clientToken: auth.client_token, accessor: 'acc123', leaseDuration: 300, tokenType: 'service' });
  });

  it('recognises batch tokens by token_type, else by their prefix', () => {
    expect(parseVaultLogin({ auth: { ...auth, token_type: 'batch', accessor: '' } })?.tokenType).toBe('batch');
    expect(parseVaultLogin({ auth: { client_token: 'hvb.AAAAAQ', lease_duration: 60 } })).toEqual({
      clientToken: 'hvb.AAAAAQ',
      accessor: '',
      leaseDuration: 60,
      tokenType: 'batch',
    });
    expect(parseVaultLogin({ auth: { client_token: 's.legacy', lease_duration: 60 } })?.tokenType).toBe('service');
  });

  it('refuses answers without a token or a whole, non-negative lease', () => {
    for (const body of [
      undefined,
      null,
      {},
      { auth: null },
      { auth: { ...auth, client_token: '' } },
      { auth: { ...auth, lease_duration: -1 } },
      { auth: { ...auth, lease_duration: 1.5 } },
      { auth: { ...auth, lease_duration: '300' } },
      { data: {}, auth: { mfa_requirement: { mfa_request_id: 'x' }, client_token: '' } },
    ]) {
      expect(parseVaultLogin(body)).toBeNull();
    }
  });
});

describe('vault revocation handle', () => {
  it('round-trips token, accessor and namespace', () => {
    const handle = { token: 'hvs.secret', accessor: 'acc', namespace: 'team/a' };
    expect(decodeVaultHandle(encodeVaultHandle(handle))).toEqual(handle);
    expect(decodeVaultHandle(encodeVaultHandle({ ...handle, namespace: null }))).toEqual({ ...handle, namespace: null });
  });

  it('refuses anything else', () => {
    for (const value of [
      '',
      'hvs.secret',
      'vault.v1:',
      'vault.v1:{}',
      'vault.v1:{"t":"","a":""}',
      'vault.v1:{"t":"x","a":1}',
      'vault.v1:{"t":"x","a":"","ns":5}',
      'vault.v2:{"t":"x","a":""}',
      'vault.v1:not json',
    ]) {
      expect(decodeVaultHandle(value)).toBeNull();
    }
  });
});

describe('vaultLoginPath', () => {
  it('builds /auth/{mount}/login with each mount segment encoded', () => {
    expect(vaultLoginPath('jwt')).toBe('/auth/jwt/login');
    expect(vaultLoginPath('/team/jwt/')).toBe('/auth/team/jwt/login');
    expect(vaultLoginPath('a b')).toBe('/auth/a%20b/login');
  });
});
