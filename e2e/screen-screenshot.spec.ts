import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  contentChannel,
  createCustomer,
  createUser,
  passwordGrant,
  rootGroupId,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';

/*
 * Issue 28 item 3: the remote screenshot is what is on screen. A browser at /player plays a slide: a large
 * magenta text block on black. "Take screenshot" on the screen page brings back an image of the whole screen in
 * which that block and its white text are drawn (the player used to refuse any slide), and the card says when it
 * was captured.
 */

const MAGENTA = '#ff00ff';

test("the screenshot of a screen showing a slide carries the slide's text block, with the time it was taken", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Screenshot ${suffix}`);
  const owner = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Shot Owner', suffix);
  const token = (await passwordGrant(request, owner.email, owner.password)).access_token;
  const contentRoot = await rootGroupId(request, token, 'contentGroup');
  const screensRoot = await rootGroupId(request, token, 'deviceGroup');
  const slide = await api<{ id: string }>(request, token, 'POST', `/api/content?contentGroupId=${contentRoot}`, {
    name: 'Capture me',
    structureType: 'SLIDE',
    data: {
      Main: {
        pageStyle: { backgroundColor: '#000000' },
        pageData: { screenSize: { width: 1920, height: 1080 }, durationMs: 60_000 },
        widgets: [
          {
            id: 'block',
            type: 'text',
            x: 460,
            y: 290,
            width: 1000,
            height: 500,
            zIndex: 1,
            text: 'CAPTURED',
            style: { backgroundColor: MAGENTA },
            textStyle: { fontSize: 160, fontWeight: 'bold', align: 'center', color: '#ffffff' },
          },
        ],
      },
    },
  });
  await api(request, token, 'POST', '/api/campaign', contentChannel('Capture channel', slide.id, screensRoot));
  await signIn(page, owner.email, owner.password);

  const screenContext = await browser.newContext({ viewport: { width: 1280, height: 720 }, baseURL });
  const player = await screenContext.newPage();
  const playerErrors = collectConsoleErrors(player);
  try {
    await player.goto('/player');
    const code = player.getByTestId('activation-code');
    await expect(code).toHaveText(/^\d{4}$/, { timeout: 20_000 });
    const device = await api<{ id: string }>(request, token, 'POST', '/api/v2/device/assignToCustomer', {
      activationCode: await code.textContent(),
      deviceName: 'Capture screen',
      timeZone: 'UTC',
      licenseStatus: 'UN_LICENSED',
    });
    await expect(player.locator('#stage > .layer[data-state="current"] [data-widget="text"]')).toHaveText('CAPTURED', { timeout: 60_000 });

    // The player's first metrics (frame rate, memory, bytes received, server round trip) once it is claimed.
    const metricsSent = player.waitForResponse((res) => res.url().endsWith('/api/display/metrics') && res.request().method() === 'POST', {
      timeout: 120_000,
    });
    await page.goto(`/screens/${device.id}`);
    await expect(page.getByRole('heading', { name: 'Capture screen' })).toBeVisible();
    await expect(page.getByText('No screenshot yet.')).toBeVisible();
    const uploaded = player.waitForResponse((res) => res.url().includes('/api/display/screenshot') && res.request().method() === 'PUT', {
      timeout: 60_000,
    });
    await page.getByRole('button', { name: 'Take screenshot' }).click();
    expect((await uploaded).status()).toBe(204);

    const image = page.getByTestId('screen-screenshot');
    await expect(image).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('screenshot-taken-at')).toContainText('Captured');
    await expect(page.getByText('High resolution')).toBeVisible();

    // Decode the image the card shows and count its colours: the block is about a quarter of the screen.
    const path = (await image.getAttribute('src'))!;
    const counts = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let magenta = 0;
      let white = 0;
      let black = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (r > 200 && g < 60 && b > 200) magenta++;
        else if (r > 220 && g > 220 && b > 220) white++;
        else if (r < 30 && g < 30 && b < 30) black++;
      }
      const total = data.length / 4;

      return { width: img.naturalWidth, height: img.naturalHeight, magenta: magenta / total, white: white / total, black: black / total };
    }, path);
    // A high-resolution preview is 1920 wide, the screen's proportions kept.
    expect(counts.width).toBe(1920);
    expect(counts.height).toBe(1080);
    expect(counts.magenta).toBeGreaterThan(0.15);
    expect(counts.magenta).toBeLessThan(0.3);
    // The text inside the block is drawn, and the rest is the slide's black page.
    expect(counts.white).toBeGreaterThan(0.005);
    expect(counts.black).toBeGreaterThan(0.5);
    // The metrics card: values with their units, an axis, no raw type names.
    expect((await metricsSent).status()).toBe(202);
    await page.reload();
    const ping = page.getByTestId('metric-SERVER_PING');
    await expect(ping.getByText('Server round trip')).toBeVisible({ timeout: 30_000 });
    await expect(ping).toContainText(/min [\d.,]+ ms · avg [\d.,]+ ms · max [\d.,]+ ms/);
    await expect(ping.getByRole('img')).toBeVisible();
    await expect(page.getByTestId('metric-NET_APP_RX')).toContainText(/max [\d.,]+ (B|KB|MB|GB)/);
    await expect(page.getByTestId('metric-FPS')).toContainText(/max [\d.,]+ fps/);
    await expect(page.getByTestId('device-metrics')).not.toContainText('_');
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Latest screenshot' }).scrollIntoViewIfNeeded();
      await screenshot(page, `screen-screenshot-card-${width}`);
    }
    expect(errors).toEqual([]);
    expect(playerErrors).toEqual([]);
  } finally {
    await screenContext.close();
  }
});
