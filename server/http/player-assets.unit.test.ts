import { describe, expect, it } from 'vitest';
import { isPlayerPath, playerAsset } from './player-assets';

describe("the web player's files", () => {
  it('is everything under /player, nothing else', () => {
    expect(isPlayerPath('/player')).toBe(true);
    expect(isPlayerPath('/player/?x=1')).toBe(true);
    expect(isPlayerPath('/players')).toBe(false);
    expect(isPlayerPath('/screens?pair=1234')).toBe(false);
  });

  it('revalidates the page and the service worker, and caches the hashed script for a year', () => {
    const page = playerAsset('/player/');
    expect(page).toMatchObject({
      file: 'index.html',
      headers: { 'cache-control': 'no-cache', 'content-type': 'text/html; charset=utf-8' },
    });
    expect(page && 'headers' in page ? page.headers['content-security-policy'] : '').toContain("script-src 'self'");
    expect(playerAsset('/player/sw.js')).toMatchObject({
      file: 'sw.js',
      headers: { 'cache-control': 'no-cache', 'service-worker-allowed': '/player/' },
    });
    expect(playerAsset('/player/player-UO5WZDD4.js')).toMatchObject({
      headers: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    expect(playerAsset('/player')).toEqual({ redirect: '/player/' });
    expect(playerAsset('/player?debug=1')).toEqual({ redirect: '/player/?debug=1' });
  });

  it('serves no path outside the bundle and leaves media to the service worker', () => {
    expect(playerAsset('/player/../.env')).toBeUndefined();
    expect(playerAsset('/player/%2e%2e/secret.js')).toBeUndefined();
    expect(playerAsset('/player/sub/dir.js')).toBeUndefined();
    expect(playerAsset('/player/media/abc')).toBeUndefined();
    expect(playerAsset('/player/notes.exe')).toBeUndefined();
  });
});
