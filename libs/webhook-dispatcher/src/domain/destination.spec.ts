import { urlProblem } from './destination';

describe('urlProblem', () => {
  it.each(['https://hooks.example.com/intent-gateway', 'http://hooks.example.com:8080/x?y=1', 'https://93.184.216.34/hook', 'https://[2606:4700::1111]/hook'])(
    'accepts %s',
    (url) => {
      expect(urlProblem(url)).toBeNull();
    },
  );

  it.each([
    ['', 'url must be an absolute http(s) URL'],
    ['not a url', 'url must be an absolute http(s) URL'],
    ['/relative/path', 'url must be an absolute http(s) URL'],
    ['hooks.example.com/x', 'url must be an absolute http(s) URL'],
    ['ftp://hooks.example.com/x', 'url must use https (or http)'],
    ['file:///etc/passwd', 'url must use https (or http)'],
    ['javascript:alert(1)', 'url must use https (or http)'],
    ['ws://hooks.example.com/x', 'url must use https (or http)'],
    ['https://user:pass@hooks.example.com/x', 'url must not carry credentials'],
    ['https://user@hooks.example.com/x', 'url must not carry credentials'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'url must be at most 2048 characters'],
  ])('refuses %p', (url, message) => {
    expect(urlProblem(url)).toBe(message);
  });
});
