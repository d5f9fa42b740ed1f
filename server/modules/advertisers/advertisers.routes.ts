import { z } from '@hono/zod-openapi';
import { ErrorSchema } from '@/server/http/errors';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import {
  TeamAccessListSchema,
  teamIdsParam,
  TeamModificationSchema,
  TeamReadQueryExtension,
  SELECT_TEAM_IDS_EXEMPTION,
  TEAM_IDS_EXEMPTION,
} from '@/server/modules/teams/teams.schemas';
import {
  AdvertiserCreateSchema,
  AdvertiserSchema,
  AdvertiserUpdateSchema,
  includeReadOnlyInfo,
  ProofOfPlayLinksSchema,
  SimpleAdvertiserListSchema,
  SimpleAdvertiserSchema,
} from './advertisers.schemas';
import { PROOF_OF_PLAY_CSV_COLUMNS, PROOF_OF_PLAY_PAGE_DAYS, type ProofOfPlayPageDays } from './proof-of-play.service';

const tags = ['Advertisers'];
const uuid = (description: string) => z.string().openapi({ description, format: 'uuid' });
const advertiserIdParams = z.object({ advertiserId: z.string().openapi({ param: { name: 'advertiserId', in: 'path' }, format: 'uuid' }) });
const advQuery = z.object({ customerId: customerIdParam, advId: uuid('The advertiser') });
const advertiserResponse = (description: string) => ({ description, ...json(AdvertiserSchema) });
const linksResponse = (description: string) => ({ description, ...json(ProofOfPlayLinksSchema) });
const scopeNote =
  'Takes the `customerId` selector like every advertiser route; without it the advertiser is found wherever the caller can see it.';

export const listAdvertisersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/adv',
    operationId: 'listAdvertisers',
    tags,
    summary: 'Advertisers, paged',
    description:
      'Team visibility applies; ordered by name unless `sort` says otherwise. `readOnly` is answered unless `select` leaves it out.',
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: { 200: { description: 'A page of advertisers', ...json(pageOf(AdvertiserSchema, 'AdvertiserPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const listSimpleAdvertisersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/adv/simple',
    operationId: 'listSimpleAdvertisers',
    tags,
    summary: 'Id and name of every advertiser the caller sees',
    description: 'By name; at most 1 000 items (use /api/adv/simplePaged beyond). `readOnly` with `includeReadOnlyInfo=true`.',
    request: { query: z.object({ customerId: customerIdParam, search: ListQuerySchema.shape.search, includeReadOnlyInfo }) },
    responses: { 200: { description: 'The advertisers', ...json(SimpleAdvertiserListSchema) } },
  },
);

export const listSimpleAdvertisersPagedRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/adv/simplePaged',
    operationId: 'listSimpleAdvertisersPaged',
    tags,
    summary: 'Id and name of the advertisers the caller sees, paged',
    request: { query: ScopedListQuerySchema.omit({ select: true }).extend({ includeReadOnlyInfo }) },
    responses: { 200: { description: 'A page of advertisers', ...json(pageOf(SimpleAdvertiserSchema, 'SimpleAdvertiserPage')) } },
  },
);

export const getAdvertiserRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/adv/{advertiserId}',
    operationId: 'getAdvertiser',
    tags,
    summary: 'One advertiser',
    description: scopeNote,
    request: { params: advertiserIdParams, query: z.object({ customerId: customerIdParam }) },
    responses: { 200: advertiserResponse('The advertiser') },
  },
  { resourceIds: { 'path.advertiserId': 'advertiser' } },
);

export const createAdvertiserRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/adv',
    operationId: 'createAdvertiser',
    tags,
    summary: 'Create an advertiser',
    description:
      'Names are unique in the customer (409 `advertiser.error.nameExists`) and at most 25 characters. `validity`: dates `yyyy-MM-dd` ' +
      '(`fromDate` not after `toDate`), an IANA `timeZone`, a 5- or 6-field `cron`. Counts against the `ADVERTISER` resource limit.',
    request: {
      query: z.object({
        customerId: customerIdParam,
        teamIds: teamIdsParam,
      }),
      body: { required: true, ...json(AdvertiserCreateSchema) },
    },
    responses: { 201: advertiserResponse('The created advertiser'), ...conflictError },
  },
  { notResourceIds: TEAM_IDS_EXEMPTION },
);

export const updateAdvertiserRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/adv/{advertiserId}',
    operationId: 'updateAdvertiser',
    tags,
    summary: 'Change an advertiser (partial)',
    description: `Omitted or null attributes keep their value; \`validity\` replaces the whole object. ${scopeNote}`,
    request: {
      params: advertiserIdParams,
      query: z.object({ customerId: customerIdParam }),
      body: { required: true, ...json(AdvertiserUpdateSchema) },
    },
    responses: { 200: advertiserResponse('The updated advertiser'), ...conflictError },
  },
  { resourceIds: { 'path.advertiserId': 'advertiser' } },
);

export const deleteAdvertiserRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/adv/{advertiserId}',
    operationId: 'deleteAdvertiser',
    tags,
    summary: 'Delete an advertiser',
    description: `Its proof-of-play link stops working. ${scopeNote}`,
    request: { params: advertiserIdParams, query: z.object({ customerId: customerIdParam }) },
    responses: { 204: { description: 'Deleted' } },
  },
  { resourceIds: { 'path.advertiserId': 'advertiser' } },
);

export const updateAdvertiserTeamsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/adv/updateTeamAssignments',
    operationId: 'updateAdvertiserTeamAssignments',
    tags: ['Advertisers', 'Teams'],
    summary: 'Change the teams of an advertiser',
    request: {
      query: z.object({ customerId: customerIdParam, advertiserId: uuid('The advertiser') }),
      body: { required: true, ...json(TeamModificationSchema) },
    },
    responses: { 200: { description: "The advertiser's teams afterwards", ...json(TeamAccessListSchema) } },
  },
  { resourceIds: { 'query.advertiserId': 'advertiser', 'body.removeFromTeamIds[]': 'team' } },
);

export const enableProofOfPlayLinksRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/adv/enableProofOfPlayLinks',
    operationId: 'enableProofOfPlayLinks',
    tags,
    summary: 'Enable (or renew) the proof-of-play links of an advertiser',
    description: 'Creates a new random token: a URL handed out before stops working.',
    request: { query: advQuery },
    responses: { 200: linksResponse('The links, with the export URL') },
  },
  { resourceIds: { 'query.advId': 'advertiser' } },
);

export const disableProofOfPlayLinksRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/adv/disableProofOfPlayLinks',
    operationId: 'disableProofOfPlayLinks',
    tags,
    summary: 'Disable the proof-of-play links of an advertiser',
    description: 'The export URL answers 401 from now on.',
    request: { query: advQuery },
    responses: { 200: linksResponse('The links, disabled') },
  },
  { resourceIds: { 'query.advId': 'advertiser' } },
);

export const getProofOfPlayLinksRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/adv/getProofOfPlayLinks',
    operationId: 'getProofOfPlayLinks',
    tags,
    summary: 'The proof-of-play links of an advertiser',
    description: "`exportHistoryAsCSV` while enabled (absent if the server's AUTH_SECRET changed since: enable again for a new URL).",
    request: { query: advQuery },
    responses: { 200: linksResponse('The links') },
  },
  { resourceIds: { 'query.advId': 'advertiser' } },
);

const linkError = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });

export const exportProofOfPlayCsvRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/public-api/adv/proof-of-play/history/export/csv',
    operationId: 'exportAdvertiserProofOfPlayCsv',
    tags,
    summary: "An advertiser's proof-of-play history as CSV (no credentials but the link's token); a readable page in a browser",
    description:
      `Columns: ${PROOF_OF_PLAY_CSV_COLUMNS.join(', ')} (ISO-8601 UTC times, newest first). A request whose \`Accept\` names ` +
      '`text/html` (a browser opening the link) without `format=csv` gets a page instead: the plays of the last `days` days ' +
      "(default 30) summed, per UTC day and per screen, with the CSV as a download. A disabled advertiser's link answers 403.",
    request: {
      query: z.object({
        token: z.string().min(1).max(512).openapi({ description: 'The token of the export URL (base64)' }),
        format: z.enum(['csv']).optional().openapi({ description: "Always the CSV, whatever `Accept` says (the page's download link)" }),
        days: z
          .enum(PROOF_OF_PLAY_PAGE_DAYS.map(String) as [string, ...string[]])
          .transform((days) => Number(days) as ProofOfPlayPageDays)
          .optional()
          .openapi({ description: "The page's period in days back from now (default 30); the CSV lists every play" }),
      }),
    },
    responses: {
      200: {
        description: 'CSV attachment, or the page for a browser',
        content: { 'text/csv': { schema: z.string() }, 'text/html': { schema: z.string() } },
      },
      400: linkError('No token, or an over-long one'),
      401: linkError('The token is invalid, or the links were disabled or renewed since'),
      403: linkError("The advertiser's customer is restricted, or the advertiser is disabled"),
    },
  },
  { rateLimited: 'invalid tokens, per client address' },
);
