import { MIN_NODE_MAJOR, requireNodeVersion } from './run-app';

describe('requireNodeVersion', () => {
  it('lets Node.js 22 and newer run, and stops an older one with one line and exit 78', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => requireNodeVersion('intent-gateway', `${MIN_NODE_MAJOR}.0.0`)).not.toThrow();
      expect(() => requireNodeVersion('intent-gateway', '24.21.0')).not.toThrow();
      expect(() => requireNodeVersion('intent-gateway', '20.20.2')).toThrow('exit 78');
      expect(write).toHaveBeenCalledTimes(1);
      expect(String(write.mock.calls[0]?.[0])).toMatch(/^intent-gateway: needs Node\.js 22 or newer, this is 20\.20\.2;.*\n$/);
    } finally {
      exit.mockRestore();
      write.mockRestore();
    }
  });
});
