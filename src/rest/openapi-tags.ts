// The OpenAPI document's tags: one per area of the service, in the order of the specification's
// table of areas ("What the service does"), each saying what the area does. A module names its
// area (ModuleDefinition.tag) and its routes take it; a route of another area names its own
// (RouteDef.tag). The type is this list, so no operation can carry a tag the document does not
// define, and each carries exactly one: a generated client gets one class per area.
export const API_TAGS = {
  Identity:
    "The specification's Login area: how an e-mail address signs in, the OAuth 2.0 token endpoint (password grant for outbound " +
    'federation, authorization code for inbound, refresh), and the exchange of an OAuth access token for a service auth token ' +
    '(x-service-authtoken) or an outbound SSO token; the session behind an auth token, and logout.',
  'User profile':
    "The caller's own profile (read, and updated field by field so that omitted fields lose no data), the caller's addresses, " +
    "and the e-consents of a company or an event with the caller's answer to each.",
  'Smart directory':
    "The addresses of the caller's contact record in a company's smart directory: listed, updated (with Sync Up, also the linked " +
    "profile address and its copies) and copied from the caller's profile.",
  'Smart library':
    'Entries (file or URL type) in an existing library, with tags, folders, filters and links; the file and tile image uploads an ' +
    'entry takes; downloads of stored files; failures of the automated ingestion process.',
  Discovery:
    "Companies recommended to the caller, whose discovery criteria the caller's profile fully or partly meets, and the criteria " +
    'of one company with the identifier definitions they reference.',
  Connections:
    "The caller's requests to connect to a company (requested, pending, accepted or rejected) and their vetting by the " +
    "company's administrators.",
  'Company administration':
    "What a company's administrators and API key create: membership records of connected users, and support groups (product, " +
    'team, QR code, assets, smart library and smart directory in one request) with their QR code images.',
  Notifications:
    "Notifications to a company's teams or an event's invitees, sent at once or scheduled for a local time in a time zone, and " +
    "the lists of those sent; the caller's inbox; the Web Push subscriptions that deliver it to the caller's browsers.",
  Events: "The caller's invitations to the active events of a company wall.",
  'Reference data':
    'Public lists the other operations refer to: time zones, countries and their states, conditions and their data version, ' +
    'assessment forms, smart directory field definitions, professions and specialties, titles and genders. No credential; ' +
    'any cache may keep them an hour.',
} as const;

/** The area of an operation: one of the document's tags. */
export type ApiTag = keyof typeof API_TAGS;

/** The document's global `tags`. */
export function openApiTags(): { name: ApiTag; description: string }[] {
  return Object.entries(API_TAGS).map(([name, description]) => ({ name: name as ApiTag, description }));
}
