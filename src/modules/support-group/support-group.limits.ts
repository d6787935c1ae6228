// The support group form's bounds, in characters as PostgreSQL counts them. The input rules
// (support-group.inputs.ts), the form parser for what it checks itself (support-group.form.ts:
// list items, consents, numbered assets) and the entity columns (support-group.entity.ts) read
// this one object, so a bound is stated once.
export const SUPPORT_GROUP_LIMITS = {
  prefix: 50,
  name: 150,
  countryCode: 2,
  stateCode: 6,
  adminEmails: 50,
  email: 255,
  fieldIds: 100,
  consents: 20,
  consentName: 255,
  consentDesc: 4000,
  /** Assets per form, numbered 1 to this (spec, "Limits"). */
  assets: 10,
  assetName: 255,
  assetDescription: 2000,
  assetInternalId: 100,
} as const;
