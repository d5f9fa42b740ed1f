import { eq } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import { findPage, type ListInput } from '@/server/query';
import { assertTemplate, changesOf, combination, packageTemplate, priceText, recurrenceColumns } from './license-templates';
import * as q from './licences.queries';
import { LICENSE_PACKAGE_DEFAULT_SELECT, licensePackageResource } from './licences.resource';
import type { LicensePackage, LicensePackageCreate, LicensePackageUpdate } from './licences.schemas';
import { licensePackages, type LicensePackageRow } from './licences.table';

const auditPackage = (
  tx: Executor,
  ctx: ServiceContext,
  row: LicensePackageRow,
  action: string,
  message: string,
  changes?: Record<string, unknown>,
) => auditChange(tx, ctx, { entityType: 'licensePackage', entityId: row.id, entityName: row.name, action, message, changes });

/** GET /api/licensePackage: paged, by name unless sorted. */
export function listLicensePackages(ctx: ServiceContext, input: ListInput) {
  const { sort, ...query } = input;

  return findPage<LicensePackage>(ctx.db, {
    resource: licensePackageResource,
    defaultSelect: LICENSE_PACKAGE_DEFAULT_SELECT,
    sort: sort.length > 0 ? sort : ['name,asc'],
    ...query,
  });
}

/** GET /api/licensePackage/{id}. */
export async function getLicensePackage(ctx: ServiceContext, input: { id: number }): Promise<LicensePackage> {
  const found = await readPackage(ctx.db, input.id);
  if (!found) throw new NotFoundError('licensePackage', input.id);

  return found;
}

/** POST /api/licensePackage: names are unique (409 `licensePackage.error.nameExists`). */
export function createLicensePackage(ctx: ServiceContext, input: { body: LicensePackageCreate }): Promise<LicensePackage> {
  const { body } = input;

  return uniquePackageName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await q.insertPackage(tx, {
        name: body.name,
        licenseType: body.licenseType,
        licensePayType: body.licensePayType,
        ...recurrenceColumns(body.recurrence),
        pricePerDevice: priceText(body.pricePerDevice),
        currency: body.currency ?? null,
      });
      await auditPackage(tx, ctx, row, 'create', `Licence package '${row.name}' created`, { ...body });

      return (await readPackage(tx, row.id))!;
    }),
  );
}

/** PUT /api/licensePackage/{id}: partial; orders made from the package keep their copies. */
export function updateLicensePackage(ctx: ServiceContext, input: { id: number; body: LicensePackageUpdate }): Promise<LicensePackage> {
  const { body } = input;

  return uniquePackageName(body.name ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await q.lockPackage(tx, input.id);
      if (!row) throw new NotFoundError('licensePackage', input.id);
      const values: Partial<typeof licensePackages.$inferInsert> = {};
      if (body.name !== undefined) values.name = body.name;
      if (body.licenseType !== undefined) values.licenseType = body.licenseType;
      if (body.licensePayType !== undefined) values.licensePayType = body.licensePayType;
      if (body.recurrence !== undefined) Object.assign(values, recurrenceColumns(body.recurrence));
      if (body.pricePerDevice !== undefined) values.pricePerDevice = priceText(body.pricePerDevice);
      if (body.currency !== undefined) values.currency = body.currency;
      const payType = values.licensePayType ?? row.licensePayType;
      if (payType === 'ONETIME') {
        if (body.recurrence !== undefined) throw combination('A ONETIME package has no recurrence', 'recurrence');
        Object.assign(values, recurrenceColumns(null));
      }
      assertTemplate({ ...packageTemplate(row), ...values });
      const changes = changesOf(row, values);
      if (Object.keys(changes).length > 0) {
        await q.updatePackage(tx, row.id, values);
        const name = values.name ?? row.name;
        await auditPackage(
          tx,
          ctx,
          { ...row, name },
          'update',
          `Licence package '${name}' updated: ${Object.keys(changes).join(', ')}`,
          changes,
        );
      }

      return (await readPackage(tx, row.id))!;
    }),
  );
}

/** DELETE /api/licensePackage/{id}: orders made from it keep their copied fields and lose the reference. */
export async function deleteLicensePackage(ctx: ServiceContext, input: { id: number }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await q.lockPackage(tx, input.id);
    if (!row) throw new NotFoundError('licensePackage', input.id);
    await q.deletePackage(tx, row.id);
    await auditPackage(tx, ctx, row, 'delete', `Licence package '${row.name}' deleted`);
  });
}

async function readPackage(db: Executor, id: number): Promise<LicensePackage | undefined> {
  const page = await findPage<LicensePackage>(db, {
    resource: licensePackageResource,
    where: [eq(licensePackages.id, id)],
    defaultSelect: LICENSE_PACKAGE_DEFAULT_SELECT,
    size: '1',
  });

  return page.content[0];
}

async function uniquePackageName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'license_package_name_key'))
      throw new ConflictError('licensePackage.error.nameExists', `A licence package named '${name}' already exists`, { name });
    throw err;
  }
}

/** The package an order names: 404 `licensePackage.error.notFound` for an unknown one. */
export async function packageForOrder(db: Executor, id: number): Promise<LicensePackageRow> {
  const row = await q.findPackage(db, id);
  if (!row) throw new NotFoundError('licensePackage', id);

  return row;
}
