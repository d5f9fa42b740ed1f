import { encode } from 'next-auth/jwt';
import { modules } from '@/server/composition';
import type { SweepFactory } from '@/server/modules/module';
import { assignInDatabase, deviceTokenRequest, register } from '@/server/modules/display/display.test-kit';
import { basic, TEST_CLIENT_SECRET, TEST_PASSWORD, testEnv, type TestContext } from '@/server/test/harness';
import type { IdPool } from './operations';

/**
 * What the contract fuzzer calls the API as: a tenant OWNER and a device of one seeded tenant, and a
 * super ADMIN of another, each tenant holding one of every resource kind (the module sweep factories),
 * so that generated ids are sometimes real ones. Generated calls may revoke a token, restrict or delete
 * a tenant: `check` finds a caller that no longer works and seeds its tenant anew.
 */

export type UserCaller = { token: string; cookie: string; customerId: number; userId: string };
export type DeviceCaller = { token: string; deviceId: string; secret: string; customerId: number };
type Tenant = { customerId: number; pool: IdPool };

/** The client address the seeding signs in from (the fuzzed calls use their own: their rate limits are theirs). */
const SEED_ADDRESS = '10.27.0.1';

const sweepFactories: [string, SweepFactory][] = modules.flatMap((m) => Object.entries(m.sweep ?? {}));

export class World {
  owner!: UserCaller;
  admin!: UserCaller;
  device!: DeviceCaller;
  private tenantA!: Tenant;
  private tenantB!: Tenant;
  /** Tenants seeded anew because a generated call broke their caller. */
  reseeds = 0;

  constructor(private readonly t: TestContext) {}

  async setUp(): Promise<void> {
    await this.seedOwnerTenant();
    await this.seedAdminTenant();
  }

  /** The ids a caller's requests fill in: its own tenant's, and the other tenant's as foreign ones. */
  pools(caller: 'owner' | 'admin' | 'device'): { own: IdPool; foreign: IdPool } {
    return caller === 'admin'
      ? { own: this.tenantB.pool, foreign: this.tenantA.pool }
      : { own: this.tenantA.pool, foreign: this.tenantB.pool };
  }

  /** One more of every resource in both tenants (generated deletes and moves use them up). */
  async replenish(): Promise<void> {
    await this.fill(this.tenantA, false);
    await this.fill(this.tenantB, false);
  }

  /** Whether a caller still works; seeds its tenant anew when not. Answers whether it was broken. */
  async repair(caller: 'owner' | 'admin' | 'device'): Promise<boolean> {
    if (await this.works(caller)) return false;
    this.reseeds++;
    if (caller === 'admin') await this.seedAdminTenant();
    else await this.seedOwnerTenant();

    return true;
  }

  async works(caller: 'owner' | 'admin' | 'device'): Promise<boolean> {
    const path = caller === 'device' ? '/api/display/status' : '/api/v2/user/me';
    const res = await this.t.app.request(
      path,
      { headers: { authorization: `Bearer ${this[caller].token}` } },
      { bridgeClientAddress: SEED_ADDRESS },
    );
    await res.arrayBuffer();

    // The device status is rate limited per device: a 429 is a device that works.
    return res.status === 200 || (caller === 'device' && res.status === 429);
  }

  private async seedOwnerTenant(): Promise<void> {
    const customer = await this.t.factories.customer();
    this.tenantA = { customerId: customer.id, pool: {} };
    this.owner = await this.userCaller('OWNER', customer.id);
    this.device = await this.deviceCaller(customer.id);
    await this.fill(this.tenantA);
  }

  private async seedAdminTenant(): Promise<void> {
    const customer = await this.t.factories.customer();
    this.tenantB = { customerId: customer.id, pool: {} };
    this.admin = await this.userCaller('ADMIN', customer.id);
    await this.fill(this.tenantB);
  }

  /** Adds one resource of every kind to the tenant's pool, keeping the last three of each (a user only when seeding: hashing is slow). */
  private async fill(tenant: Tenant, withUser = true): Promise<void> {
    const add = (kind: string, id: string) => {
      const ids = (tenant.pool[kind] ??= []);
      if (!ids.includes(id)) ids.push(id);
      if (ids.length > 3) ids.shift();
    };
    for (const [kind, factory] of sweepFactories) add(kind, await factory(this.t.db, tenant.customerId));
    // A user of the tenant that is none of the callers (a caller's own id would let a call delete it).
    if (withUser) add('user', (await this.t.factories.user({ role: 'VIEWER', customerId: tenant.customerId })).id);
  }

  private async userCaller(role: 'OWNER' | 'ADMIN', customerId: number): Promise<UserCaller> {
    const user = await this.t.factories.user({ role, customerId });
    const res = await this.t.app.request(
      '/oauth/token',
      {
        method: 'POST',
        headers: { authorization: basic('default-client', TEST_CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username: user.email, password: TEST_PASSWORD }).toString(),
      },
      { bridgeClientAddress: SEED_ADDRESS },
    );
    const body = (await res.json()) as { access_token?: string; refresh_token?: string };
    if (res.status !== 200 || !body.access_token) throw new Error(`contract fuzz: sign-in of the ${role} failed (${res.status})`);
    // The console's session cookie, as next-auth writes it, around the same access token.
    const cookie = await encode({
      secret: testEnv.AUTH_SECRET,
      token: { sub: user.id, email: user.email, accessToken: body.access_token, refreshToken: body.refresh_token },
    });

    return { token: body.access_token, cookie, customerId, userId: user.id };
  }

  private async deviceCaller(customerId: number): Promise<DeviceCaller> {
    const registered = await register(this.t);
    if (registered.status !== 201) throw new Error(`contract fuzz: device registration failed (${registered.status})`);
    const { deviceId, deviceSecret } = registered.body as { deviceId: string; deviceSecret: string };
    await assignInDatabase(this.t, deviceId, customerId);
    const token = await deviceTokenRequest(this.t, deviceId, deviceSecret);
    if (token.status !== 200) throw new Error(`contract fuzz: device token failed (${token.status})`);

    return { token: token.body.access_token as string, deviceId, secret: deviceSecret, customerId };
  }
}
