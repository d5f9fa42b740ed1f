import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';

/* Campaigns link to advertisers and message groups: tenant checks, names, and what deleting them does. */

let k: CampaignsTestKit;
let contentId: string;

beforeAll(async () => {
  k = await campaignsTestKit();
  contentId = (await k.own.content('Ad')).id;
});
afterAll(() => k.t.close());

const advertiser = async (token: string, name: string) => {
  const res = await k.t.request('POST', '/api/adv', { token, json: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: string };
};

describe('campaign links', () => {
  it("names its advertiser, refuses another tenant's, and loses it when the advertiser is deleted", async () => {
    const acme = await advertiser(k.owner, 'Acme');
    const foreign = await advertiser((await k.t.actor('OWNER', { customerId: k.otherCustomerId })).token, 'Foreign');
    const campaign = await k.create(k.contentChannel(contentId, { advertiserId: acme.id }));
    expect(campaign).toMatchObject({ advertiserId: acme.id, advertiserName: 'Acme' });
    const listed = await k.t.request('GET', `/api/v2/campaign/${campaign.id}?select=name,advertiser(name)`, { token: k.viewer });
    expect(listed.body.advertiser).toMatchObject({ id: acme.id, name: 'Acme' });
    const refused = await k.t.request('POST', '/api/campaign', {
      token: k.approver,
      json: k.contentChannel(contentId, { advertiserId: foreign.id }),
    });
    expect(refused.status).toBe(404);
    const unknown = await k.t.request('POST', '/api/campaign', {
      token: k.approver,
      json: k.contentChannel(contentId, { advertiserId: '0190a2b4-0000-7000-8000-000000000000' }),
    });
    expect(unknown.status).toBe(404);

    expect((await k.t.request('DELETE', `/api/adv/${acme.id}`, { token: k.owner })).status).toBeLessThan(300);
    const after = await k.t.request('GET', `/api/v2/campaign/${campaign.id}`, { token: k.viewer });
    expect(after.body.advertiserId).toBeUndefined();
  });

  it('plays message groups of its tenant only; a played group cannot be deleted', async () => {
    const group = await k.t.request('POST', '/api/messageGroup', { token: k.approver, json: { name: 'News' } });
    expect(group.status).toBe(201);
    const foreignGroup = await k.t.request('POST', '/api/messageGroup', { token: k.otherApprover, json: { name: 'Theirs' } });
    expect(foreignGroup.status).toBe(201);
    const body = (messageGroupId: number) => ({
      name: 'Ticker',
      level: 'WIDGET',
      type: 'MESSAGE_GROUP',
      version: '2.0',
      contentShuffleMode: 'SERIAL',
      messageGroupAssignment: { assignments: [{ messageGroupId }] },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: k.own.roots.device.id }] },
    });
    expect((await k.t.request('POST', '/api/campaign', { token: k.approver, json: body(foreignGroup.body.id) })).status).toBe(404);
    const channel = await k.create(body(group.body.id));
    const read = await k.t.request('GET', `/api/v2/campaign/${channel.id}`, { token: k.viewer });
    expect(read.body.messageGroupAssignments).toEqual([{ id: group.body.id, name: 'News' }]);

    const refused = await k.t.request('DELETE', `/api/messageGroup/${group.body.id}`, { token: k.approver });
    expect(refused.status).toBe(409);
    expect(refused.body.key).toBe('messageGroup.error.inUse');
    expect((await k.t.request('DELETE', `/api/campaign/${channel.id}`, { token: k.approver })).status).toBeLessThan(300);
    expect((await k.t.request('DELETE', `/api/messageGroup/${group.body.id}`, { token: k.approver })).status).toBe(204);
  });
});
