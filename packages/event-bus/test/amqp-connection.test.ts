import { EventEmitter } from 'node:events';
import type { ChannelModel } from 'amqplib';
import { ensureAlive } from '../src/amqp/amqp-connection';

/** Just enough of amqplib's ChannelModel for the liveness probe. */
function fakeModel(probe: {
  open?: () => Promise<void>;
  close?: (model: EventEmitter) => void;
}): ChannelModel {
  const model = new EventEmitter();
  Object.assign(model, {
    createChannel: async () => {
      await probe.open?.();
      return { close: async () => probe.close?.(model) };
    },
  });
  return model as unknown as ChannelModel;
}

describe('the liveness probe run on every new connection (ensureAlive)', () => {
  it('accepts a connection that can open and close a channel', async () => {
    const model = fakeModel({});
    await expect(ensureAlive(model)).resolves.toBeUndefined();
    expect(model.listenerCount('close')).toBe(0);
  });

  it('rejects a connection the broker closed while it was opening, so recovery tries again', async () => {
    const model = fakeModel({
      open: async () => {
        throw new Error('Connection closed: 320 (CONNECTION-FORCED)');
      },
    });
    await expect(ensureAlive(model)).rejects.toThrow('Connection closed');
    expect(model.listenerCount('close')).toBe(0);
  });

  it('rejects a connection that closes together with the probe channel', async () => {
    const model = fakeModel({ close: (emitter) => void emitter.emit('close', new Error('gone')) });
    await expect(ensureAlive(model)).rejects.toThrow('Connection closed while opening');
    expect(model.listenerCount('close')).toBe(0);
  });
});
