import { acrSatisfies, DEFAULT_ACR_LEVELS } from './acr';

describe('acrSatisfies', () => {
  it('orders the default levels pwd < otp < mfa < hwk', () => {
    expect(DEFAULT_ACR_LEVELS).toEqual(['pwd', 'otp', 'mfa', 'hwk']);
    expect(acrSatisfies('hwk', 'mfa')).toBe(true);
    expect(acrSatisfies('mfa', 'mfa')).toBe(true);
    expect(acrSatisfies('otp', 'mfa')).toBe(false);
    expect(acrSatisfies('pwd', 'otp')).toBe(false);
  });

  it('accepts an equal unlisted value and refuses other unlisted ones', () => {
    expect(acrSatisfies('urn:x', 'urn:x')).toBe(true);
    expect(acrSatisfies('urn:x', 'mfa')).toBe(false);
    expect(acrSatisfies('hwk', 'urn:x')).toBe(false);
  });

  it('compares numeric levels', () => {
    expect(acrSatisfies('2', '1')).toBe(true);
    expect(acrSatisfies('1', '2')).toBe(false);
    expect(acrSatisfies('10', '9')).toBe(true);
  });

  it('never satisfies with a missing or non-string acr', () => {
    expect(acrSatisfies(undefined, 'pwd')).toBe(false);
    expect(acrSatisfies('', 'pwd')).toBe(false);
    expect(acrSatisfies(3, '1')).toBe(false);
  });

  it('uses a configured order', () => {
    expect(acrSatisfies('b', 'a', ['a', 'b'])).toBe(true);
    expect(acrSatisfies('a', 'b', ['a', 'b'])).toBe(false);
  });
});
