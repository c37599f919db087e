import { hostPortOf, isLocalHost } from './probes';

describe('infrastructure URL parsing', () => {
  it('reads host and port from service URLs, with the protocol default port when absent', () => {
    expect(hostPortOf('amqp://guest:guest@127.0.0.1:5672', 5672)).toEqual({ host: '127.0.0.1', port: 5672 });
    expect(hostPortOf('redis://cache.internal', 6379)).toEqual({ host: 'cache.internal', port: 6379 });
    expect(hostPortOf('smtp://[::1]:1025', 25)).toEqual({ host: '::1', port: 1025 });
  });

  it('treats only loopback addresses as this machine', () => {
    expect(['127.0.0.1', 'localhost', '::1', '127.0.0.53'].every(isLocalHost)).toBe(true);
    expect(['mongo', '10.0.0.5', 'db.example.test'].some(isLocalHost)).toBe(false);
  });
});
