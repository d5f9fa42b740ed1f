import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlExample, examplePayload, shellQuote, triggerUrl } from './trigger-example';

describe('trigger examples', () => {
  it('names the public trigger endpoint at the origin', () => {
    expect(triggerUrl('https://signage.example.com/')).toBe('https://signage.example.com/public-api/integration/webhooks');
  });

  it('sends the event id and samples of the parameters the action leaves to the payload', () => {
    expect(examplePayload({ eventId: 'menu', action: 'RESTART_DEVICE_ALL' })).toEqual({ event_id: 'menu' });
    expect(examplePayload({ eventId: 'vol', action: 'CHANGE_VOLUME_DEVICE', actionParams: {} })).toEqual({
      event_id: 'vol',
      volumeLevel: 0,
    });
    expect(examplePayload({ eventId: 'vol', action: 'CHANGE_VOLUME_DEVICE', actionParams: { volumeLevel: '40' } })).toEqual({
      event_id: 'vol',
    });
    expect(examplePayload({ eventId: 'set', action: 'SET_INTERNAL_DATASOURCE' })).toEqual({ event_id: 'set', data: '{"<key>":"<value>"}' });
  });

  it('quotes for a POSIX shell, a single quote included', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    // The shell itself gives back what was quoted.
    expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(`{"message":"it's $HOME \`x\`"}`)}`]).toString()).toBe(
      `{"message":"it's $HOME \`x\`"}`,
    );
  });

  it('builds a curl command with the header key and the JSON body', () => {
    const command = curlExample({ origin: 'http://127.0.0.1:3000', apiKey: 'abc.def', payload: { event_id: 'fire' } });
    expect(command).toBe(
      [
        "curl -X POST 'http://127.0.0.1:3000/public-api/integration/webhooks' \\",
        "  -H 'X-Webhook-Apikey: abc.def' \\",
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"event_id":"fire"}'`,
      ].join('\n'),
    );
    // A shell parses it into exactly these arguments.
    const args = execFileSync('sh', ['-c', command.replace(/^curl/, `printf '%s\\n'`)])
      .toString()
      .trim()
      .split('\n');
    expect(args).toEqual([
      '-X',
      'POST',
      'http://127.0.0.1:3000/public-api/integration/webhooks',
      '-H',
      'X-Webhook-Apikey: abc.def',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"event_id":"fire"}',
    ]);
  });
});
