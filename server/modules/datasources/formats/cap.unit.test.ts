import { describe, expect, it } from 'vitest';
import { CAP_DEFAULT_LIFETIME_MS, parseCap } from './cap';
import { expectReadable, fixture, formatErrorOf } from './formats.test-kit';
import type { CapAlertItem, Feed } from './types';

const MORNING = Date.UTC(2026, 2, 16, 8, 0);
const HOUR = 3_600_000;

function ids(feed: Feed): string[] {
  return feed.items.map((item) => item.id);
}

function alert(fields: {
  identifier: string;
  sent: string;
  msgType?: string;
  references?: string;
  expires?: string;
  severity?: string;
}): Buffer {
  return Buffer.from(`<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
    <identifier>${fields.identifier}</identifier><sender>ops@city.example</sender><sent>${fields.sent}</sent>
    <status>Actual</status><msgType>${fields.msgType ?? 'Alert'}</msgType><scope>Public</scope>
    ${fields.references ? `<references>${fields.references}</references>` : ''}
    <info><event>Heat</event><urgency>Expected</urgency><severity>${fields.severity ?? 'Moderate'}</severity><certainty>Likely</certainty>
    ${fields.expires ? `<expires>${fields.expires}</expires>` : ''}<headline>Heat ${fields.identifier}</headline>
    <area><areaDesc>Old Town</areaDesc></area></info></alert>`);
}

describe('parseCap: one alert at a time (Alert → Update → Cancel)', () => {
  const first = parseCap(fixture('cap-flood-alert.xml'), { now: MORNING });

  it('answers the alert as a feed item carrying the CAP fields', () => {
    expect(first.items).toHaveLength(1);
    const item = first.items[0] as CapAlertItem;
    expect(item).toMatchObject({
      id: 'HYDRO-2026-0316-001',
      title: 'Flood warning for the Riverside district',
      summary: 'River levels are rising after two days of heavy rain.\nFlooding of low-lying roads is expected from this evening.',
      link: 'https://hydro.example.gov/warnings/HYDRO-2026-0316-001',
      published: Date.UTC(2026, 2, 16, 5, 0),
      author: 'Regional Hydrology Service',
      identifier: 'HYDRO-2026-0316-001',
      sender: 'warnings@hydro.example.gov',
      sent: '2026-03-16T06:00:00+01:00',
      status: 'Actual',
      msgType: 'Alert',
      severity: 'Moderate',
      urgency: 'Expected',
      certainty: 'Likely',
      event: 'Flood warning',
      headline: 'Flood warning for the Riverside district',
      instruction: 'Avoid the riverside paths. Move valuables above ground level.',
      areaDesc: 'Riverside district',
      geocodes: [{ valueName: 'NUTS3', value: 'UKI31' }],
      expires: '2026-03-17T18:00:00+01:00',
    });
  });

  it('replaces the alert its Update references', () => {
    const updated = parseCap(fixture('cap-flood-update.xml'), { now: MORNING + 5 * HOUR, previous: first });
    expect(ids(updated)).toEqual(['HYDRO-2026-0316-002']);
    expect(updated.items[0]).toMatchObject({ msgType: 'Update', severity: 'Severe', areaDesc: 'Riverside district; Mill Lane estate' });
  });

  it('removes the alert its Cancel references, and does not show the Cancel', () => {
    const updated = parseCap(fixture('cap-flood-update.xml'), { now: MORNING + 5 * HOUR, previous: first });
    const cancelled = parseCap(fixture('cap-flood-cancel.xml'), { now: MORNING + 26 * HOUR, previous: updated });
    expect(cancelled.items).toEqual([]);
  });

  it('keeps an earlier alert that nothing updates until it expires', () => {
    const other = alert({ identifier: 'HEAT-1', sent: '2026-03-16T07:00:00Z', expires: '2026-03-16T20:00:00Z' });
    const both = parseCap(other, { now: MORNING, previous: first });
    expect(ids(both)).toEqual(['HEAT-1', 'HYDRO-2026-0316-001']);
    const evening = parseCap(alert({ identifier: 'HEAT-2', sent: '2026-03-16T21:00:00Z' }), {
      now: Date.UTC(2026, 2, 16, 21),
      previous: both,
    });
    expect(ids(evening)).toEqual(['HEAT-2', 'HYDRO-2026-0316-001']);
  });

  it('drops an alert whose expires has passed', () => {
    const expired = alert({ identifier: 'HEAT-OLD', sent: '2026-03-15T07:00:00Z', expires: '2026-03-15T20:00:00Z' });
    expect(parseCap(expired, { now: MORNING }).items).toEqual([]);
    // and a remembered one once its time has come
    expect(
      parseCap(alert({ identifier: 'X', sent: '2026-03-18T07:00:00Z' }), { now: Date.UTC(2026, 2, 18, 8), previous: first }).items.map(
        (item) => item.id,
      ),
    ).toEqual(['X']);
  });

  it('keeps a remembered alert without expires for 24 hours after it was sent', () => {
    const noExpiry = parseCap(alert({ identifier: 'OPEN', sent: '2026-03-16T07:00:00Z' }), { now: MORNING });
    const sent = Date.UTC(2026, 2, 16, 7);
    const unrelated = alert({ identifier: 'OTHER', sent: '2026-03-16T09:00:00Z', expires: '2026-03-20T00:00:00Z' });
    expect(ids(parseCap(unrelated, { now: sent + CAP_DEFAULT_LIFETIME_MS - HOUR, previous: noExpiry }))).toEqual(['OTHER', 'OPEN']);
    expect(ids(parseCap(unrelated, { now: sent + CAP_DEFAULT_LIFETIME_MS + HOUR, previous: noExpiry }))).toEqual(['OTHER']);
  });

  it('applies an Alert, its Update and a Cancel arriving in one document in the order they were sent', () => {
    const envelope = Buffer.from(
      `<EDXLDistribution><contentObject><xmlContent><embeddedXMLContent>
      ${alert({ identifier: 'C', sent: '2026-03-16T09:00:00Z', msgType: 'Cancel', references: 'ops@city.example,B,2026-03-16T08:00:00Z' })}
      </embeddedXMLContent></xmlContent></contentObject><contentObject><xmlContent><embeddedXMLContent>
      ${alert({ identifier: 'A', sent: '2026-03-16T07:00:00Z' })}
      </embeddedXMLContent></xmlContent></contentObject><contentObject><xmlContent><embeddedXMLContent>
      ${alert({ identifier: 'B', sent: '2026-03-16T08:00:00Z', msgType: 'Update', references: 'ops@city.example,A,2026-03-16T07:00:00Z' })}
      </embeddedXMLContent></xmlContent></contentObject></EDXLDistribution>`.replace(/<\?xml[^>]*>/g, ''),
    );
    expect(parseCap(envelope, { now: MORNING + 2 * HOUR }).items).toEqual([]);
  });
});

describe('parseCap: a feed of inline alerts (a full list of what is active)', () => {
  const feed = parseCap(fixture('cap-weather-feed.xml'), { now: MORNING });

  it('answers the active Actual alerts, newest first, leaving out the expired and the test alert', () => {
    expect(ids(feed)).toEqual(['STORM-77', 'POLLEN-12']);
    expect(feed.items[0]).toMatchObject({ severity: 'Extreme', areaDesc: 'Coastal North; Harbour City', instruction: 'Stay indoors.' });
  });

  it('drops a remembered alert the feed no longer lists', () => {
    const withFlood = parseCap(fixture('cap-flood-alert.xml'), { now: MORNING });
    expect(ids(parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, previous: withFlood }))).toEqual(['STORM-77', 'POLLEN-12']);
  });

  it('shows exercises and tests only when asked to', () => {
    expect(ids(parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, statuses: ['Actual', 'Test'] }))).toEqual([
      'STORM-77',
      'TEST-1',
      'POLLEN-12',
    ]);
  });

  it.each([
    ['Extreme', ['STORM-77']],
    ['Severe', ['STORM-77']],
    ['Moderate', ['STORM-77']],
    ['Minor', ['STORM-77', 'POLLEN-12']],
    ['Unknown', ['STORM-77', 'POLLEN-12']],
  ] as const)('filters by a minimum severity of %s', (minimumSeverity, expected) => {
    expect(ids(parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, minimumSeverity }))).toEqual(expected);
  });

  it('filters by area: a case-insensitive part of areaDesc or of a geocode value', () => {
    expect(ids(parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, areaFilter: 'inland' }))).toEqual(['POLLEN-12']);
    expect(ids(parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, areaFilter: 'HARBOUR city' }))).toEqual(['STORM-77']);
    expect(ids(parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, areaFilter: '801001' }))).toEqual(['STORM-77']);
    expect(ids(parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, areaFilter: 'Mountains' }))).toEqual([]);
  });

  it('answers an empty feed (no warnings today) as no alerts', () => {
    const quiet = Buffer.from('<feed xmlns="http://www.w3.org/2005/Atom"><title>Active warnings</title></feed>');
    expect(parseCap(quiet, { now: MORNING })).toEqual({ items: [] });
  });

  it('only adds to what is known when isUpdateOnly (a webhook inserting alerts), and then needs an alert', () => {
    const withFlood = parseCap(fixture('cap-flood-alert.xml'), { now: MORNING });
    const added = parseCap(fixture('cap-weather-feed.xml'), { now: MORNING, previous: withFlood, isUpdateOnly: true });
    expect(ids(added)).toEqual(['STORM-77', 'HYDRO-2026-0316-001', 'POLLEN-12']);
    const quiet = Buffer.from('<feed xmlns="http://www.w3.org/2005/Atom"><title>Active warnings</title></feed>');
    expect(formatErrorOf(() => parseCap(quiet, { now: MORNING, previous: withFlood, isUpdateOnly: true })).message).toBe(
      'The document holds no CAP alert with an identifier, sender and sent time.',
    );
  });
});

describe('parseCap: malformed documents', () => {
  it.each([
    ['malformed XML', '<alert><identifier>X</alert>', /^The document is not valid XML: /],
    ['another document', '<catalog><room/></catalog>', /^The document is not a CAP alert: its root element is <catalog>, not <alert>\.$/],
    ['an alert without identifier', '<alert><sender>a</sender><sent>2026-03-16T00:00:00Z</sent></alert>', /lacks its identifier/],
    [
      'a feed that only links to its alerts',
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><link href="https://x.example/cap/1.xml"/></entry></feed>',
      /do not carry their CAP alerts inline/,
    ],
  ])('refuses %s with a readable reason', (_, body, message) => {
    const error = formatErrorOf(() => parseCap(Buffer.from(body), { now: MORNING }));
    expect(error.message).toMatch(message);
    expectReadable(error);
  });

  it('ignores previous items that are not CAP alerts', () => {
    // stored JSON can be anything: the cast states what the caller believes, the parser must not
    const previous = { items: [{ id: 'x', title: 'not an alert' }, null] } as unknown as Feed;
    expect(ids(parseCap(fixture('cap-flood-alert.xml'), { now: MORNING, previous }))).toEqual(['HYDRO-2026-0316-001']);
  });
});
