// See vitest.config.ts: the server's outbound client imports undici at boot, which makes it Node's fetch dispatcher.
import 'undici';
