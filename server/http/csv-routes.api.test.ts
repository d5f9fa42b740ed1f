import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import { licenseOrders } from '@/server/modules/licences/licences.table';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { messages } from '@/server/modules/messages/messages.table';
import { reportGroupings } from '@/server/modules/proof-of-play/reports.schemas';
// The kit's harness imports createApp, which imports every *.routes.ts: the table is complete from here on.
import { routeTable, type RouteTableEntry } from './route';

/*
 * CSV formula injection (issue 27 §4.2, OWASP "CSV Injection"): every route that answers text/csv, found in the
 * route table, writes a CSV in which no cell starts with a character a spreadsheet runs as a formula, while its
 * data is full of names that do. A CSV route without a case here fails, so a new export cannot skip the check.
 */

const HOSTILE = ['=HYPERLINK("http://evil.example")x', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx'];
const FORMULA_START = /^[=+\-@\t\r]/;

let k: CampaignsTestKit;
/** Per hostile name, the tenant's items named by it, each played once on a screen of that name. */
const named: { device: string; file: string; content: string; campaign: number; message: number }[] = [];
let exportUrl: URL;
let from: number;

/** The cells of an RFC 4180 text (quoted fields may hold commas, quotes, CR and LF). */
function csvCells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);

  return rows;
}

beforeAll(async () => {
  k = await campaignsTestKit();
  const { t } = k;
  const advertiser = (await t.request('POST', '/api/adv', { token: k.owner, json: { name: 'Formulas', enabled: true } })).body;
  const group = (await t.request('POST', '/api/messageGroup', { token: k.owner, json: { name: 'Formula group' } })).body;
  from = Date.now() - 24 * 3_600_000;
  for (const name of HOSTILE) {
    const screen = await newDevice(t, { customerId: k.customerId });
    const file = await k.own.file(name);
    const content = await k.own.content(name);
    const campaign = await k.create(k.contentChannel(content.id, { name: `Channel ${uuidv7()}`, advertiserId: advertiser.id }));
    const message = await t.request('POST', '/api/message', {
      token: k.owner,
      json: { version: '2.0', messageGroupId: group.id, name: `Message ${uuidv7()}`, type: 'CONTENT', contentId: content.id },
    });
    expect(message.status, JSON.stringify(message.body)).toBe(201);
    // Names as hostile as the columns hold (the APIs trim some): written directly.
    await t.db.update(devices).set({ name }).where(eq(devices.id, screen.deviceId));
    await t.db.update(campaigns).set({ name }).where(eq(campaigns.id, campaign.id));
    await t.db.update(messages).set({ name }).where(eq(messages.id, message.body.id));
    const startedAt = Date.now() - 3_600_000;
    const events = [
      {
        eventId: uuidv7(),
        startedAt,
        endedAt: startedAt + 10_000,
        completed: true,
        campaignId: campaign.id,
        messageId: message.body.id,
        contentId: content.id,
        pageId: name,
        widgetKey: name,
      },
      { eventId: uuidv7(), startedAt, endedAt: startedAt + 5_000, completed: true, campaignId: campaign.id, fileId: file.id },
    ];
    const played = await t.request('POST', '/api/display/proofOfPlay', { token: screen.token, json: events });
    expect(played.body).toMatchObject({ accepted: 2, rejected: [] });
    named.push({ device: screen.deviceId, file: file.id, content: content.id, campaign: campaign.id, message: message.body.id });
  }
  await t.db.insert(auditLog).values(
    HOSTILE.map((name) => ({
      message: name,
      action: 'update',
      entityType: 'device',
      entityName: name,
      userEmail: name,
      customerId: k.customerId,
      customerName: name,
      deviceId: name,
      deviceName: name,
      contentId: name,
      contentName: name,
      datasourceId: name,
      datasourceName: name,
    })),
  );
  const links = await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${advertiser.id}`, { token: k.owner });
  exportUrl = new URL(links.body.exportHistoryAsCSV as string);
});
afterAll(() => k.t.close());

const get = (path: string, token?: string) => k.t.app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The proof-of-display report paths' entity ids (spec 3 "Reporting"), by the path's type. */
const reportEntity = (type: string, index = 0): string => {
  const item = named[index]!;
  const ids: Record<string, string | number> = {
    device: item.device,
    content: item.content,
    campaign: item.campaign,
    file: item.file,
    message: item.message,
  };

  return String(ids[type]);
};

/** A case per CSV route: the CSVs it answers over the hostile data (several where the route has options). */
type CsvCase = (route: RouteTableEntry) => Promise<Response[]>;

const cases: Record<string, CsvCase> = {
  exportAuditLogCsv: async (route) => [await get(`${route.path}?customerId=${k.customerId}`, k.owner)],
  exportAdvertiserProofOfPlayCsv: async (route) => [await get(`${route.path}${exportUrl.search}`)],
  // Licence orders whose free texts (comment, PO number, invoice system id) are the hostile names.
  exportLicenseOrdersCsv: async (route) => {
    await k.t.db.insert(licenseOrders).values(
      HOSTILE.map((name) => ({
        customerId: k.customerId,
        orderDate: new Date(),
        deviceLicenseCount: 1,
        comment: name,
        poNumber: name,
        invoiceSystemId: name,
      })),
    );
    const admin = await k.t.actor('ADMIN');

    return [await get(`${route.path}?customerId=${k.customerId}`, admin.token)];
  },
};

/** Every report CSV: each of its groupings (WIDGET, CONTENT_PAGE and ASSET name widgets, pages and items). */
const reportCase: CsvCase = async (route) => {
  const path = route.path.replace(/\/(\w+)\/\{\w+\}/, (_, type: string) => `/${type}/${reportEntity(type)}`);
  const answers: Response[] = [];
  for (const groupBy of reportGroupings) {
    answers.push(
      await get(
        `${path}?${new URLSearchParams({ customerId: String(k.customerId), from: String(from), timeZone: 'UTC', resolution: 'TOTAL', groupBy })}`,
        k.viewer,
      ),
    );
  }

  return answers;
};

function caseFor(route: RouteTableEntry): CsvCase | undefined {
  if (route.path.startsWith('/api/v2/proof-of-display/')) return reportCase;

  return cases[route.operationId];
}

const answersCsv = (route: RouteTableEntry) =>
  Object.values(route.responses ?? {}).some((response) =>
    Object.keys((response as { content?: Record<string, unknown> }).content ?? {}).some((type) => type.startsWith('text/csv')),
  );
const csvRoutes = routeTable.filter(answersCsv);

describe('CSV formula injection', () => {
  it('finds the CSV routes in the route table (the audit log, 12 proof-of-display reports, the advertiser and licence order exports), each with a case', () => {
    expect(csvRoutes.length).toBeGreaterThanOrEqual(15);
    expect(csvRoutes.filter((route) => !caseFor(route)).map((route) => `${route.method} ${route.path} (${route.operationId})`)).toEqual([]);
  });

  it.each(csvRoutes.map((route) => ({ route, name: route.operationId })))(
    '$name starts no cell with =, +, -, @, tab or CR',
    async ({ route }) => {
      const answers = await caseFor(route)!(route);
      let neutralised = 0;
      for (const res of answers) {
        const text = await res.text();
        expect(res.status, text).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
        const cells = csvCells(text).flat();
        expect(cells.filter((cell) => FORMULA_START.test(cell))).toEqual([]);
        neutralised += cells.filter(
          (cell) => HOSTILE.includes(cell.slice(1)) || HOSTILE.some((name) => cell.startsWith(`'${name}`)),
        ).length;
      }
      // The hostile names reached the CSV (as text, behind a quote): the case tests something.
      expect(neutralised).toBeGreaterThan(0);
    },
  );
});
