import { describe, expect, it } from 'vitest';
import type { AlertNotification } from './notification-deliveries.schemas';
import { deliveryTexts } from './notification-texts';

const offline: AlertNotification = {
  type: 'alert.device.offline',
  timestamp: '2026-11-29T08:00:00.000Z',
  data: {
    alertId: 1,
    alertRuleId: 2,
    alertRuleName: 'Lobby',
    customerId: 3,
    device: { id: 'd1', name: 'Entrance', lastActivity: null, folderPath: 'HQ/Lobby' },
  },
};

describe('deliveryTexts', () => {
  it('writes a default from the payload when the rule gives no texts', () => {
    const texts = deliveryTexts(offline);
    expect(texts.emailSubject).toBe("Screen 'Entrance' is offline (Lobby)");
    expect(texts.emailBody).toContain('Folder: HQ/Lobby');
    expect(texts.emailBody).toContain('Last activity: never');
    expect(texts.sms).toBe(texts.emailSubject);
  });

  it('takes the rendered texts, a blank one falls back; no NUL, a subject of one line', () => {
    const texts = deliveryTexts({ ...offline, texts: { emailSubject: 'Down:\r\nBcc: x@example.com', emailBody: ' ', sms: 'S\u0000MS' } });
    expect(texts.emailSubject).toBe('Down: Bcc: x@example.com');
    expect(texts.emailBody).toContain('Screen: Entrance');
    expect(texts.sms).toBe('SMS');
  });
});
