/**
 * The reverse proxy's settings, one place for both proxies: the cluster test's own (test-proxy.ts) uses these values,
 * and docs/deploying/nginx.conf states the same ones in nginx's terms (nginx-conf.unit.test.ts compares them), so the
 * configuration an operator copies is the one the cluster test ran behind.
 */
export const PROXY_SETTINGS = {
  /**
   * How long a WebSocket (or a slow answer) may stay silent before the proxy closes it (`proxy_read_timeout`). Above
   * the device heartbeat (DEVICE_HEARTBEAT_SECONDS, default 60 s) and the server's protocol ping (DEVICE_PING_SECONDS,
   * default 30 s): a live screen's connection always carries a frame sooner, so only a dead one is cut.
   */
  readTimeoutSeconds: 90,
  /** How long a write to the instance may stall (`proxy_send_timeout`): the same bound as reads. */
  sendTimeoutSeconds: 90,
  /**
   * How long connecting to an instance may take before the next one is tried (`proxy_connect_timeout`). A refused
   * connection moves on at once; this bounds an instance whose machine stopped answering.
   */
  connectTimeoutSeconds: 5,
  /**
   * The largest request body (`client_max_body_size`): a chunked upload's part, which may be the whole file of a
   * one-chunk session, 10 GiB (MAX_SESSION_SIZE, server/modules/uploads/uploads.schemas.ts). Bodies stream through
   * (`proxy_request_buffering off`): nothing is spooled.
   */
  clientMaxBodyBytes: 10 * 1024 ** 3,
  /**
   * Passive health (`max_fails`, `fail_timeout`): one failed connection takes an instance out for 10 s, then it is
   * tried again. A draining instance (SIGTERM) refuses new connections, so it leaves the rotation at once.
   */
  maxFails: 1,
  failTimeoutSeconds: 10,
  /**
   * Idle keep-alive connections to the instances are closed after this (upstream `keepalive_timeout`): below the
   * server's own 65 s (server/main.ts), so the proxy never sends a request on a connection the server is closing.
   */
  upstreamKeepaliveTimeoutSeconds: 60,
} as const;

/**
 * How often the test proxy asks each instance's `/readyz` (an active check nginx's open-source build does not have; the
 * passive one above covers it there). Short so the SIGTERM test sees an instance leave the rotation quickly.
 */
export const READINESS_PROBE_INTERVAL_MS = 500;
