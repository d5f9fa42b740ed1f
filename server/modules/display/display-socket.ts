import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { hashToken } from '@/server/auth/opaque-token';
import { listenToChannel } from '@/server/db/notification-feed';
import { UnauthorizedError } from '@/server/errors';
import type { SocketEndpoint } from '@/server/http/upgrade';
import { metricsOf } from '@/server/metrics/metrics';
import type { SocketDeps } from '@/server/modules/module';
import { DEVICE_PUSH_CHANNEL, dropsManifestEtag, parseDevicePush, type DevicePushNotice } from './device-push';
import { DevicePushQueue } from './device-push-queue';
import { installManifestEtagStore, ManifestEtagStore } from './manifest-etag-store';
import { DeviceSessions } from './device-sessions';
import { DEVICE_MESSAGE_MAX_BYTES } from './display.schemas';
import * as sq from './device-sessions.queries';

const DEVICE_SOCKET_PATH = '/api/display/ws';

/**
 * `GET /api/display/ws?ticket=` (spec 4 §3): the device's WebSocket. The ticket (from `POST
 * /api/display/wsTicket`, single use, 30 s) is checked before the upgrade; a bad one gets an HTTP 401. News
 * for devices arrives on the `device_push` channel from every instance and is handed to the sessions in order.
 */
export async function startDeviceSockets(deps: SocketDeps): Promise<SocketEndpoint[]> {
  const { handle, log } = deps;
  const sessions = new DeviceSessions({ db: handle.db, config: deps.config, storage: deps.storage, log });
  // The ETags 304s are answered from live as long as this feed does: its notices drop them.
  const etagStore = new ManifestEtagStore();
  const uninstallEtagStore = installManifestEtagStore(handle.db, etagStore);
  const server = new WebSocketServer({ noServer: true, maxPayload: DEVICE_MESSAGE_MAX_BYTES, perMessageDeflate: false });
  const removeDeviceCount = metricsOf(handle.db)?.addConnectedDevices(() => sessions.size);

  const push = new DevicePushQueue({
    handle: (notice) => sessions.notice(notice),
    failed: (err) => log.error({ err }, 'device push failed'),
  });
  let lost = false;
  const feed = await listenToChannel(
    handle,
    DEVICE_PUSH_CHANNEL,
    {
      message: (payload) => {
        const notice: DevicePushNotice | undefined = parseDevicePush(payload);
        if (!notice) return;
        // At once, not behind the push work: a 304 must not be answered from a dropped ETag meanwhile.
        if (dropsManifestEtag(notice.kind)) etagStore.drop(notice.deviceIds);
        push.notice(notice);
      },
      live: (live) => {
        etagStore.setFeedLive(live);
        // Back after an outage: what was announced meanwhile is lost, so tell every connected device again.
        if (live && lost) {
          push.run(async () => {
            const ids = sessions.connectedIds();
            await sessions.deliverCommands(ids);
            await sessions.announceManifests(ids);
          });
        }
        lost = !live;
      },
    },
    log,
  );

  // The ping round is not push work: a batch command to every screen must not wait behind it. One round at a time.
  let round: Promise<void> | undefined;
  const ticker = setInterval(() => {
    round ??= sessions
      .tick()
      .catch((err: unknown) => log.error({ err }, 'device ping round failed'))
      .finally(() => (round = undefined));
  }, deps.config.devicePingSeconds * 1000);
  ticker.unref();

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const ticket = new URL(req.url ?? '/', 'http://localhost').searchParams.get('ticket') ?? '';
    const caller = ticket.length >= 20 && ticket.length <= 200 ? await sq.redeemSocketTicket(handle.db, hashToken(ticket)) : undefined;
    if (!caller || caller.customerRestricted)
      throw new UnauthorizedError('The WebSocket ticket is invalid, expired or used', 'display.error.invalidTicket');
    server.handleUpgrade(req, socket, head, (ws) => {
      sessions.open(ws, caller).catch((err: unknown) => {
        log.error({ err, deviceId: caller.deviceId }, 'device connection failed to open');
        ws.close(1011, 'internal error');
      });
    });
  };

  return [
    {
      path: DEVICE_SOCKET_PATH,
      upgrade,
      close: async () => {
        clearInterval(ticker);
        removeDeviceCount?.();
        etagStore.setFeedLive(false);
        uninstallEtagStore();
        sessions.closeAll();
        // A round under way ends at its next slice (or after the statement it is in).
        await round;
        await sessions.flushWrites();
        await sessions.endAll();
        await feed.stop();
        await push.idle();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    },
  ];
}
