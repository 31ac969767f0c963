import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoNestLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: new PinoNestLogger(pino({ level: 'trace' }, stream)) };
}

describe('PinoNestLogger', () => {
  it('logs an object message as structured fields with its msg as the message, never "[object Object]"', () => {
    const { lines, logger } = capture();
    logger.warn(
      { msg: 'webhook attempt failed', delivery_id: 'whd_1', webhook_id: 'whk_1', org_id: 'org_a', status: 'retrying', attempt: 2 },
      'WebhookDelivery',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      context: 'WebhookDelivery',
      msg: 'webhook attempt failed',
      delivery_id: 'whd_1',
      webhook_id: 'whk_1',
      org_id: 'org_a',
      status: 'retrying',
      attempt: 2,
    });
    expect(JSON.stringify(lines)).not.toContain('[object Object]');
  });

  it('keeps text messages as they are, and an Error as err with its message', () => {
    const { lines, logger } = capture();
    logger.error('could not revoke', 'stack here', 'DispenseMandate');
    logger.error(new Error('boom'), undefined, 'Worker');
    logger.debug('started', 'App');
    expect(lines[0]).toMatchObject({ level: 50, msg: 'could not revoke', trace: 'stack here', context: 'DispenseMandate' });
    expect(lines[1]).toMatchObject({ level: 50, msg: 'boom', context: 'Worker', err: { message: 'boom' } });
    expect(lines[2]).toMatchObject({ level: 20, msg: 'started', context: 'App' });
  });
});
