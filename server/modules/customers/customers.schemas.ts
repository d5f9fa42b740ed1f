import { z } from '@hono/zod-openapi';

export const licenseTiers = ['STARTER', 'BUSINESS', 'ENTERPRISE'] as const;
export type LicenseTier = (typeof licenseTiers)[number];

export const verticals = [
  'BANKING_AND_FINANCE', 'EMPLOYEE_CORPORATE_COMMUNICATION', 'CORPORATE_MEETING_ROOMS', 'DIGITAL_SIGNAGE',
  'EDUCATION_COLLAGE_AND_UNIVERSITIES', 'CONFERENCE_AND_CONVENTION_CENTERS', 'GOVERNMENT', 'HEALTHCARE',
  'HOSPITALITY', 'QUICK_SERVICE_RESTAURANT', 'RETAIL', 'SPORTS',
  'PETROL_STATIONS', 'TRANSPORTATION', 'ENTERTAINMENT', 'WAYFINDING_AND_DIRECTORIES',
  'OTHER', 'FACTORY_PRODUCEMENT', 'BUSINESS_PARTNER', 'RESELLER_PARTNER', 'TECHNOLOGY_PARTNER',
] as const;
export type Vertical = (typeof verticals)[number];


export const CustomerSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    comment: z.string().optional(),
    country: z.string().optional(),
    location: z.string().optional(),
    type: z.string().optional(),
    vertical: z.enum(verticals).optional(),
    createdDate: z.string().openapi({ format: 'date-time' }).optional(),
    restricted: z.boolean().optional(),
    expirationDate: z.string().openapi({ format: 'date-time' }).optional(),
    force2FA: z.boolean().optional(),
    licenseTier: z.enum(licenseTiers).optional(),
    ownerSubresellerId: z.number().int().optional(),
    ownerSubresellerName: z.string().optional().openapi({ description: 'Computed; returned when named in select' }),
    subreseller: z.object({ id: z.number().int(), since: z.string().optional() }).optional().openapi({ description: 'Present when the customer is a network owner' }),
  })
  .openapi('Customer');

export const CustomerCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    licenseTier: z.enum(licenseTiers).optional(),
    vertical: z.enum(verticals).optional(),
    comment: z.string().max(2000).optional(),
    country: z.string().max(255).optional(),
    location: z.string().max(255).optional(),
    type: z.string().max(255).optional(),
  })
  .openapi('CustomerCreate');

export type CustomerCreate = z.infer<typeof CustomerCreateSchema>;

export type Customer = z.infer<typeof CustomerSchema>;
