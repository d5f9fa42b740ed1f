import { claimAttempt } from '@/server/auth/failure-limit';
import type { Config } from '@/server/config';
import { allTenants } from '@/server/context/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { Database } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { csvLine, csvStream } from '@/server/csv';
import { AppError, ForbiddenError, TooManyRequestsError } from '@/server/errors';
import { advertiserPlaySources, type AdvertiserPlay, type AdvertiserPlaySummary } from './advertiser-plays';
import * as q from './advertisers.queries';
import type { ProofOfPlayLinks } from './advertisers.schemas';
import { auditAdvertiser, visibleAdvertiser, writableAdvertiser } from './advertisers.service';
import type { AdvertiserRow } from './advertisers.table';
import { decodeLinkToken, encodeLinkToken, exportUrl, newLinkSecret, openSealedSecret, secretMatches } from './proof-of-play-token';

/*
 * Proof-of-play links of an advertiser (spec 2 "Proof-of-play links object", spec 4 §5): one public CSV
 * export URL whose token names the advertiser and carries a random secret. Enabling creates a new secret
 * (a second enable rotates it: the old URL stops working); disabling forgets it.
 */

/** The columns of the proof-of-play CSV export, in order (spec 4 §5: one row per play, newest first). */
export const PROOF_OF_PLAY_CSV_COLUMNS = [
  'startedAt',
  'endedAt',
  'durationMs',
  'deviceName',
  'campaignName',
  'contentName',
  'fileName',
] as const;

/** Plays read per statement while the export streams (keyset pages, newest first). */
const CSV_BATCH = 1000;

/** Wrong link tokens per client address before 429 (every instance shares the count: failure-limit). */
const WRONG_TOKEN_POLICY = { limit: 30, windowSeconds: 15 * 60 };

/** PUT /api/adv/enableProofOfPlayLinks?advId= (TECHNICIAN): a new secret; answers the URL. */
export async function enableProofOfPlayLinks(ctx: ServiceContext, input: { id: string; baseUrl: string }): Promise<ProofOfPlayLinks> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableAdvertiser(tx, ctx, input.id);
    const secret = newLinkSecret(ctx.config, row.id);
    await q.setLinkSecret(tx, row, { hash: secret.hash, sealed: secret.sealed });
    const rotated = row.proofOfPlaySecretHash !== null;
    await auditAdvertiser(
      tx,
      ctx,
      row,
      'enableProofOfPlayLinks',
      `Proof-of-play links of advertiser '${row.name}' ${rotated ? 'renewed' : 'enabled'}`,
      {
        proofOfPlayAccessSecretConfigured: { from: rotated, to: true },
      },
    );

    return { exportHistoryAsCSV: exportUrl(input.baseUrl, encodeLinkToken(row.id, secret.secret)), enabled: true };
  });
}

/** PUT /api/adv/disableProofOfPlayLinks?advId= (TECHNICIAN): the secret is forgotten; the URL stops working. */
export async function disableProofOfPlayLinks(ctx: ServiceContext, input: { id: string }): Promise<ProofOfPlayLinks> {
  return withTransaction(ctx.db, async (tx) => {
    const row = await writableAdvertiser(tx, ctx, input.id);
    if (row.proofOfPlaySecretHash !== null) {
      await q.setLinkSecret(tx, row, null);
      await auditAdvertiser(tx, ctx, row, 'disableProofOfPlayLinks', `Proof-of-play links of advertiser '${row.name}' disabled`, {
        proofOfPlayAccessSecretConfigured: { from: true, to: false },
      });
    }

    return { enabled: false };
  });
}

/** GET /api/adv/getProofOfPlayLinks?advId= (VIEWER): the current URL while enabled. */
export async function getProofOfPlayLinks(ctx: ServiceContext, input: { id: string; baseUrl: string }): Promise<ProofOfPlayLinks> {
  const row = await visibleAdvertiser(ctx.db, ctx, input.id);

  return linksOf(ctx.config, row, input.baseUrl);
}

function linksOf(config: Config, row: AdvertiserRow, baseUrl: string): ProofOfPlayLinks {
  if (row.proofOfPlaySecretHash === null) return { enabled: false };
  const secret = openSealedSecret(config, row.id, row.proofOfPlaySecretSealed);
  // A secret sealed under another AUTH_SECRET cannot be shown again: the link works, enabling again gives a new one.
  if (secret === undefined || !secretMatches(secret, row.proofOfPlaySecretHash)) return { enabled: true };

  return { exportHistoryAsCSV: exportUrl(baseUrl, encodeLinkToken(row.id, secret)), enabled: true };
}

/** What the public export knows of its caller: no user, only the link and the address. */
export type LinkContext = { db: Database; config: Config; address: string };

/** The advertiser a right link names, as its public answers need it. */
type LinkedAdvertiser = { id: string; name: string; customerId: number };

/**
 * The advertiser of a link token, or the error the link answers: a wrong, revoked or rotated token is a 401 and
 * counts against the address (429 past the limit); a right one of a restricted customer is a 403, of a disabled
 * advertiser a 403 `proofOfPlay.error.advertiserDisabled` (docs/decisions.md "Advertisers": disabled means not
 * credited and not published).
 */
async function openLink(ctx: LinkContext, token: string): Promise<LinkedAdvertiser> {
  const claim = await claimAttempt(ctx.db, ctx.config, [`proofOfPlayLink:${ctx.address}`], WRONG_TOKEN_POLICY);
  if (!claim.allowed) throw new TooManyRequestsError(claim.retryAfterSeconds, 'Too many invalid proof-of-play links; try again later');
  const decoded = decodeLinkToken(token);
  const row = decoded ? await q.findLinkCredentials(ctx.db, allTenants, decoded.advertiserId) : undefined;
  // Compared even when no row was found, so an unknown advertiser takes as long as a wrong secret.
  const matches = secretMatches(decoded?.secret ?? '', row?.secretHash ?? 'no-such-advertiser-0000000000000000000000');
  if (!row || !matches) throw invalidLink();
  await claim.attempt.release(ctx.db);
  if (row.customerRestricted) throw new ForbiddenError('The customer account is restricted', 'auth.error.customerRestricted');
  if (!row.enabled)
    throw new ForbiddenError('The advertiser is disabled: its proof of play is not published', 'proofOfPlay.error.advertiserDisabled');

  return { id: row.id, name: row.name, customerId: row.customerId! };
}

/**
 * GET /public-api/adv/proof-of-play/history/export/csv?token=: the advertiser's proof-of-play CSV, each play
 * of its channels newest first, streamed in keyset batches (proof of play plugs in the reader).
 */
export async function exportProofOfPlayCsv(
  ctx: LinkContext,
  input: { token: string },
): Promise<{ filename: string; csv: ReadableStream<Uint8Array> }> {
  const row = await openLink(ctx, input.token);
  const source = advertiserPlaySources.items()[0];
  const target = { customerId: row.customerId, advertiserId: row.id };
  const csv = await csvStream(
    PROOF_OF_PLAY_CSV_COLUMNS,
    CSV_BATCH,
    async (after: AdvertiserPlay | undefined) => (source ? source.batch(ctx.db, { ...target, after, limit: CSV_BATCH }) : []),
    (p) => csvLine([p.startedAt, p.endedAt, p.durationMs, p.deviceName, p.campaignName, p.contentName, p.fileName]),
  );

  return { filename: `proof-of-play-${row.id}.csv`, csv };
}

/** The periods the public page offers, in days back from now (UTC). */
export const PROOF_OF_PLAY_PAGE_DAYS = [7, 30, 90, 365] as const;
export type ProofOfPlayPageDays = (typeof PROOF_OF_PLAY_PAGE_DAYS)[number];

/**
 * The same link opened in a browser: the advertiser's name and its plays over the last `days` days summed (totals,
 * per UTC day, per screen), what the CSV holds and nothing more.
 */
export async function proofOfPlaySummary(
  ctx: LinkContext,
  input: { token: string; days: ProofOfPlayPageDays; now?: Date },
): Promise<{ advertiserName: string; from: Date; to: Date; summary: AdvertiserPlaySummary }> {
  const row = await openLink(ctx, input.token);
  const to = input.now ?? new Date();
  const from = new Date(to.getTime() - input.days * 86_400_000);
  const source = advertiserPlaySources.items()[0];
  const empty: AdvertiserPlaySummary = { total: { plays: 0, durationMs: 0, screens: 0 }, days: [], screens: [] };
  const summary = source ? await source.summary(ctx.db, { customerId: row.customerId, advertiserId: row.id, from, to }) : empty;

  return { advertiserName: row.name, from, to, summary };
}

/** 401 without a Bearer challenge: the link's token is the only credential this URL takes. */
function invalidLink(): AppError {
  return new AppError(401, 'proofOfPlay.error.invalidLink', 'The proof-of-play link is invalid, or its links were disabled or renewed');
}
