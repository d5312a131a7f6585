import { describe, expect, it } from 'vitest';
import { natsAuth } from './nats.js';

describe('NATS_URL', () => {
  it('passes a user and password, or a token, as credentials and the address without them', () => {
    expect(natsAuth('nats://csms:s%40cret@10.0.0.7:4222')).toEqual({ servers: 'nats://10.0.0.7:4222', user: 'csms', pass: 's@cret' });
    expect(natsAuth('nats://t0ken@nats.internal:4222')).toEqual({ servers: 'nats://nats.internal:4222', token: 't0ken' });
    expect(natsAuth('nats://127.0.0.1:4222')).toEqual({ servers: 'nats://127.0.0.1:4222' });
    expect(natsAuth('127.0.0.1:4222')).toEqual({ servers: '127.0.0.1:4222' });
  });
});
