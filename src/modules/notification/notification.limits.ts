// The notification records' bounds (spec, "Limits"), in characters as PostgreSQL counts them.
// The input rules (notification.inputs.ts) and the entity columns (notification.entity.ts)
// read this one object, so a bound is stated once.

export const LIMITS = {
  /** Of the scheduled record and of a request. */
  message: 1000,
  /** The sent record keeps the message truncated to this. */
  sentMessage: 255,
  url: 1024,
  description: 2000,
  notificationLog: 2000,
  emailTemplate: 100,
  emailSubject: 256,
  emailParamKey: 100,
  emailParamValue: 2000,
  scheduleTimezoneId: 40,
  scheduleJobName: 100,
  /** created-by / modified-by: a user id. */
  userId: 15,
  /** Items per request (the service's own limits; the spec states none): WSLimitExceededException beyond. */
  emailParams: 50,
  valueIds: 50,
  /** One value id (a team id or a code such as a product code). */
  valueId: 50,
} as const;
