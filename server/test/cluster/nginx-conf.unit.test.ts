import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { MAX_SESSION_SIZE } from '@/server/modules/uploads/uploads.schemas';
import { PROXY_SETTINGS } from './proxy-settings';

/*
 * docs/deploying/nginx.conf is the proxy configuration an operator copies; the cluster test ran behind the test proxy
 * (test-proxy.ts). Both take their timeouts, body limit and health rules from proxy-settings.ts: this test reads the
 * nginx file and fails when a value there differs, so the tested configuration is the documented one.
 */

const conf = readFileSync(new URL('../../../docs/deploying/nginx.conf', import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter(Boolean);

/** The values of every occurrence of `directive` (the words after it, up to the semicolon). */
function values(directive: string): string[] {
  return conf.filter((line) => line.startsWith(`${directive} `)).map((line) => line.slice(directive.length).replace(/;$/, '').trim());
}

function one(directive: string): string {
  const found = values(directive);
  expect(found, `${directive} in nginx.conf`).toHaveLength(1);

  return found[0]!;
}

/** nginx's time (`90s`, `1m`) in seconds. */
function seconds(value: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value);
  if (!match) throw new Error(`not an nginx time: ${value}`);
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600 }[match[2] ?? 's']!;

  return Number(match[1]) * factor;
}

/** nginx's size (`10g`, `512m`, `64k`) in bytes. */
function bytes(value: string): number {
  const match = /^(\d+)([kmg])?$/i.exec(value);
  if (!match) throw new Error(`not an nginx size: ${value}`);

  return Number(match[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').toLowerCase() as '' | 'k' | 'm' | 'g'];
}

describe('docs/deploying/nginx.conf', () => {
  it("has the test proxy's timeouts, body limit and keep-alive", () => {
    expect(seconds(one('proxy_read_timeout'))).toBe(PROXY_SETTINGS.readTimeoutSeconds);
    expect(seconds(one('proxy_send_timeout'))).toBe(PROXY_SETTINGS.sendTimeoutSeconds);
    expect(seconds(one('proxy_connect_timeout'))).toBe(PROXY_SETTINGS.connectTimeoutSeconds);
    expect(bytes(one('client_max_body_size'))).toBe(PROXY_SETTINGS.clientMaxBodyBytes);
    expect(seconds(one('keepalive_timeout'))).toBe(PROXY_SETTINGS.upstreamKeepaliveTimeoutSeconds);
  });

  it("marks every upstream server with the test proxy's passive health rule", () => {
    const servers = conf.filter((line) => /^server \S+:\d+/.test(line));
    expect(servers.length).toBeGreaterThanOrEqual(2);
    for (const server of servers) {
      expect(server).toContain(` max_fails=${PROXY_SETTINGS.maxFails} `);
      expect(seconds(/fail_timeout=(\S+?);/.exec(server)?.[1] ?? '')).toBe(PROXY_SETTINGS.failTimeoutSeconds);
    }
  });

  it('upgrades WebSockets over HTTP/1.1 and forwards what the server reads', () => {
    expect(one('proxy_http_version')).toBe('1.1');
    expect(values('proxy_set_header')).toEqual(
      expect.arrayContaining([
        'Upgrade $http_upgrade',
        'Connection $connection_upgrade',
        // server/http/request-origin.ts compares the Host, port included, with PUBLIC_URL's.
        'Host $http_host',
        'X-Forwarded-For $proxy_add_x_forwarded_for',
        'X-Forwarded-Proto $scheme',
        'X-Forwarded-Host $http_host',
      ]),
    );
    expect(one('proxy_request_buffering')).toBe('off');
  });

  it("keeps the shared values above what the server and its uploads need (the server's defaults)", () => {
    const defaults = parseConfig({ NODE_ENV: 'test' });
    // A live screen's socket carries a frame (heartbeat, ping) sooner than the proxy would cut it.
    expect(PROXY_SETTINGS.readTimeoutSeconds).toBeGreaterThan(defaults.deviceHeartbeatSeconds);
    expect(PROXY_SETTINGS.readTimeoutSeconds).toBeGreaterThan(defaults.devicePingSeconds);
    // The largest upload part (a one-part session of the largest size) gets through.
    expect(PROXY_SETTINGS.clientMaxBodyBytes).toBe(MAX_SESSION_SIZE);
    // The proxy closes idle upstream connections before the server does (server/main.ts: 65 s).
    expect(PROXY_SETTINGS.upstreamKeepaliveTimeoutSeconds).toBeLessThan(65);
  });
});
