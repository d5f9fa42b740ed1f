/*
 * The tenant's enumerations, below every module: the customer table (customers.table.ts beside this file) and the
 * resource limits per licence tier use them; the customers module's wire schemas re-export them.
 */

export const licenseTiers = ['STARTER', 'BUSINESS', 'ENTERPRISE'] as const;
export type LicenseTier = (typeof licenseTiers)[number];

export const verticals = [
  'BANKING_AND_FINANCE',
  'EMPLOYEE_CORPORATE_COMMUNICATION',
  'CORPORATE_MEETING_ROOMS',
  'DIGITAL_SIGNAGE',
  'EDUCATION_COLLAGE_AND_UNIVERSITIES',
  'CONFERENCE_AND_CONVENTION_CENTERS',
  'GOVERNMENT',
  'HEALTHCARE',
  'HOSPITALITY',
  'QUICK_SERVICE_RESTAURANT',
  'RETAIL',
  'SPORTS',
  'PETROL_STATIONS',
  'TRANSPORTATION',
  'ENTERTAINMENT',
  'WAYFINDING_AND_DIRECTORIES',
  'OTHER',
  'FACTORY_PRODUCEMENT',
  'BUSINESS_PARTNER',
  'RESELLER_PARTNER',
  'TECHNOLOGY_PARTNER',
] as const;
export type Vertical = (typeof verticals)[number];
