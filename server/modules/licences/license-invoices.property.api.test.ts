import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { insertOrder, type LicenseOrderValues } from './licences.queries';
import { recurrenceTypes } from './licences.schemas';

/*
 * The invoice formula against an independent computation: random orders go into the database, and the API's
 * recurringRevenueList must equal sums done here in exact rational BigInt arithmetic (not SQL), rounded half up to
 * 6 places.
 */

let t: TestContext;
let admin: string;

const DATE = new Date('2026-12-01T00:00:00.000Z');
const DAY = 86_400_000;
const CURRENCIES = ['EUR', 'USD', 'CHF'] as const;

type Order = {
  priceTenThousandths: bigint | null;
  currency: (typeof CURRENCIES)[number];
  count: number;
  approved: boolean;
  isSubscription: boolean;
  recurrenceType: (typeof recurrenceTypes)[number];
  frequency: number;
  invoiceStartOffsetDays: number | null;
};

const orderArbitrary: fc.Arbitrary<Order> = fc.record({
  priceTenThousandths: fc.option(fc.bigInt({ min: 0n, max: 99_999_999_999_999n }), { freq: 8 }),
  currency: fc.constantFrom(...CURRENCIES),
  count: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 1_000_000 })),
  approved: fc.boolean(),
  isSubscription: fc.boolean(),
  recurrenceType: fc.constantFrom(...recurrenceTypes),
  frequency: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 1000 })),
  // Around the view's date, the date itself included.
  invoiceStartOffsetDays: fc.option(fc.integer({ min: -40, max: 40 }), { freq: 3 }),
});

/** A fraction of BigInts (denominator positive). */
type Fraction = { n: bigint; d: bigint };

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

function add(x: Fraction, y: Fraction): Fraction {
  const n = x.n * y.d + y.n * x.d;
  const d = x.d * y.d;
  const g = gcd(n, d) || 1n;

  return { n: n / g, d: d / g };
}

/** Spec 3: price × count × (DAILY 30/f, WEEKLY 4.333333/f, MONTHLY 1/f, YEARLY f/12); prices in ten-thousandths. */
function monthlyRevenue(order: Order & { priceTenThousandths: bigint }): Fraction {
  const base = order.priceTenThousandths * BigInt(order.count);
  const f = BigInt(order.frequency);
  switch (order.recurrenceType) {
    case 'DAILY':
      return { n: base * 30n, d: 10_000n * f };
    case 'WEEKLY':
      return { n: base * 4_333_333n, d: 10_000n * 1_000_000n * f };
    case 'MONTHLY':
      return { n: base, d: 10_000n * f };
    case 'YEARLY':
      return { n: base * f, d: 10_000n * 12n };
  }
}

/** A non-negative fraction rounded half up to 6 places, as the decimal the API's number is read from. */
function roundedNumber(x: Fraction): number {
  const micro = (x.n * 2_000_000n + x.d) / (2n * x.d);
  const whole = micro / 1_000_000n;
  const fraction = (micro % 1_000_000n).toString().padStart(6, '0');

  return Number(`${whole}.${fraction}`);
}

const isCounted = (order: Order): order is Order & { priceTenThousandths: bigint } =>
  order.approved &&
  order.isSubscription &&
  order.priceTenThousandths !== null &&
  (order.invoiceStartOffsetDays === null || order.invoiceStartOffsetDays <= 0);

function expectedRevenue(orders: Order[]) {
  const sums = new Map<string, Fraction>();
  for (const order of orders.filter(isCounted)) {
    sums.set(order.currency, add(sums.get(order.currency) ?? { n: 0n, d: 1n }, monthlyRevenue(order)));
  }

  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, sum]) => ({ currency, monthlyAverage: roundedNumber(sum) }));
}

const decimalOf = (tenThousandths: bigint) => `${tenThousandths / 10_000n}.${(tenThousandths % 10_000n).toString().padStart(4, '0')}`;

function rowOf(customerId: number, order: Order): LicenseOrderValues {
  return {
    customerId,
    orderDate: new Date(DATE.getTime() + 30 * DAY),
    deviceLicenseCount: order.count,
    licenseType: 'PROFESSIONAL',
    licensePayType: order.isSubscription ? 'SUBSCRIPTION' : 'ONETIME',
    recurrenceType: order.isSubscription ? order.recurrenceType : null,
    recurrenceFrequency: order.isSubscription ? order.frequency : null,
    pricePerDevice: order.priceTenThousandths === null ? null : decimalOf(order.priceTenThousandths),
    currency: order.priceTenThousandths === null ? null : order.currency,
    approved: order.approved,
    invoiceStartDate: order.invoiceStartOffsetDays === null ? null : new Date(DATE.getTime() + order.invoiceStartOffsetDays * DAY),
  };
}

beforeAll(async () => {
  t = await createTestContext();
  admin = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

describe('the invoice formula (property)', () => {
  it('answers the exact sums of random orders, per customer and globally', async () => {
    // Every order inserted by any run (shrinking included): the global view covers them all.
    const everyOrder: Order[] = [];
    const query = `date=${encodeURIComponent(DATE.toISOString())}`;
    await fc.assert(
      fc.asyncProperty(fc.array(orderArbitrary, { minLength: 0, maxLength: 12 }), async (orders) => {
        const { id } = await t.factories.customer();
        for (const order of orders) await insertOrder(t.db, rowOf(id, order));
        everyOrder.push(...orders);

        const own = await t.request('GET', `/api/customer/${id}/view/invoice?${query}`, { token: admin });
        expect(own.status).toBe(200);
        expect(own.body.recurringRevenueList).toEqual(expectedRevenue(orders));
        const global = await t.request('GET', `/api/customer/global/view/invoice?${query}`, { token: admin });
        expect(global.body.recurringRevenueList).toEqual(expectedRevenue(everyOrder));
      }),
      { numRuns: 30 },
    );
  });
});
