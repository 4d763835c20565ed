import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopback } from '../../src/temporal/plaintext.js';

// Plaintext is taken without being asked for only where the connection cannot leave the machine:
// the address is read as the worker dials it, and anything that is not plainly `host:port` on
// loopback is not loopback.

describe('isLoopback', () => {
  it('takes localhost, ::1 and 127.x, with or without a port', () => {
    for (const address of [
      'localhost:7233',
      'LOCALHOST:7233',
      'localhost',
      '127.0.0.1:7233',
      '127.0.0.2:7233',
      '127.0.0.1',
      '[::1]:7233',
      '[::1]',
      '::1',
    ])
      assert.equal(isLoopback(address), true, address);
  });

  it('takes nothing else: an address whose host is not plainly loopback, or whose port is not digits, is not', () => {
    for (const address of [
      // The worker dials evil.example: what precedes '@' is user information, not the host.
      'localhost:7233@evil.example',
      'localhost:7233@evil.example:7233',
      '127.0.0.1:7233@evil.example',
      '[::1]:7233@evil.example',
      'localhost@evil.example:7233',
      'localhost:7233/evil.example',
      'localhost:7233#@evil.example',
      'localhost:7233?x=@evil.example',
      'localhost:7233 evil.example',
      'localhost:',
      'localhost:72a3',
      'localhost:+7233',
      'localhost:99999999',
      'http://localhost:7233',
      '[::1',
      '[localhost]:7233',
      '127.0.0.1.evil.example:7233',
      'localhost.evil.example:7233',
      'evil.example:7233',
      '0.0.0.0:7233',
      '',
    ])
      assert.equal(isLoopback(address), false, address);
  });
});
