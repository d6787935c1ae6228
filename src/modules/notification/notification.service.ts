// sendNotification: the one entry point for sending, used by the GraphQL mutation and by other
// modules (the smart library's `sendNotification: true`). Authorisation is the caller's job:
// the resolver requires the push-notification role; a module calling it has its own rule.
import type { Services } from '../../services';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../../logger';
import { ServiceError, invalidParameter } from '../../core/errors';
import { Company } from '../company';
import { Team } from '../team';
import { Event } from '../event';
import { ScheduledNotification, type SentNotification } from './notification.entity';
import type { Mailer } from './notification.mailer';
import { interpretRequest, type NotificationRequest, type ValidRequest } from './notification.request';
import { findRecipients, recordDelivery, type DeliverySpec } from './notification.delivery';
import { enqueueScheduled } from './notification.dispatch';

export interface NotificationDeps {
  logger?: Logger;
  /** The app's mailer (ctx.services.mailer); the e-mail job sends with the services' own. */
  mailer?: Mailer;
  /** The clock (ctx.services.clock.now); tests inject one. */
  now?: () => Date;
  /** The app's services: each delivery raises the hook notificationDelivered through them, and
   * scheduled sends and e-mails are jobs on their queue. */
  services?: Services;
}

export interface SendNotificationArgs extends NotificationRequest {
  /** User id of the sender, recorded as created-by. */
  senderId: number;
}

export interface SendOutcome {
  /** Set for an ad hoc send: delivered already. */
  sent: SentNotification | null;
  /** Set for a scheduled send: the scheduler delivers it at its time. */
  scheduled: ScheduledNotification | null;
}

/** GT/GA team ids must be teams of the company; a GE event must be the company's and not cancelled. */
async function checkTargets(em: EntityManager, req: ValidRequest): Promise<void> {
  if (req.broadcastType === 'GT' || req.broadcastType === 'GA') {
    const ids = req.valueIds.map(Number);
    const teams = await em.find(Team, { teamId: { $in: ids }, company: req.companyId }, { fields: ['teamId'] });
    const known = new Set(teams.map((t) => t.teamId));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw invalidParameter('valueIds', `${unknown} is not a team of company ${req.companyId}.`);
  }
  if (req.broadcastType === 'GE') {
    const event = await em.findOne(Event, { eventUUID: req.eventUUID! });
    if (!event || event.company.companyId !== req.companyId) throw new ServiceError('WSEventNotFoundException');
    if (event.status === 'C') throw new ServiceError('WSEventCancelledException');
  }
}

/** The services: a scheduled send or an e-mail is a job on their queue. */
function servicesOf(deps: NotificationDeps): Services {
  if (!deps.services) throw new Error('sendNotification: a scheduled send or an e-mail needs the services in its deps');
  return deps.services;
}

export function deliverySpec(req: ValidRequest, createdBy: string, schedule: ScheduledNotification | null): DeliverySpec {
  return {
    type: req.broadcastType,
    companyId: req.companyId,
    eventUUID: req.eventUUID,
    brochureId: req.brochureId,
    teamIds: req.broadcastType === 'GT' || req.broadcastType === 'GA' ? req.valueIds.map(Number) : [],
    message: req.message,
    url: req.url,
    email: req.email,
    schedule,
    createdBy,
  };
}

/**
 * Checks (the input's field rules, then the rules across fields) and sends a notification: at once
 * (writes the sent record, the recipients' inbox rows and the e-mail outbox: the e-mails are a job
 * that runs after the commit), or, with scheduleLocalDateTime and scheduleTimezoneId, stores a
 * scheduled record and the job that delivers it at that local time. Throws the spec's errors
 * (WSInvalidParameterException, WSFieldLengthException, WSLimitExceededException,
 * WSEventNotFoundException, WSEventCancelledException). Inside a caller's transaction everything
 * joins it, the jobs included: nothing is sent unless it commits.
 */
export async function sendNotification(em: EntityManager, args: SendNotificationArgs, deps: NotificationDeps): Promise<SendOutcome> {
  const now = deps.now?.() ?? new Date();
  const { senderId, ...request } = args;
  const req = interpretRequest(request, now);
  await checkTargets(em, req);
  const createdBy = String(senderId);

  if (req.schedule) {
    const schedule = req.schedule;
    return em.transactional(async (tx) => {
      const scheduled = tx.create(ScheduledNotification, {
        company: tx.getReference(Company, req.companyId),
        broadcastType: req.broadcastType,
        keyCompanyId: req.broadcastType === 'GT' ? req.companyId : null,
        keyEventUUID: req.eventUUID,
        scheduleTimezoneId: schedule.timezoneId,
        scheduleLocalDateTime: schedule.localDateTime,
        scheduleDueAt: schedule.dueAt,
        scheduleJobName: req.jobName,
        message: req.message,
        url: req.url,
        valueIds: req.valueIds,
        scheduleCreated: now,
        scheduleModified: now,
        scheduleCreatedBy: createdBy,
        scheduleModifiedBy: createdBy,
        brochureId: req.brochureId,
        emailTemplate: req.email?.template ?? null,
        emailSubject: req.email?.subject ?? null,
        emailParams: req.email?.params ?? null,
      });
      await tx.flush();
      await enqueueScheduled(tx, servicesOf(deps), scheduled);
      return { sent: null, scheduled };
    });
  }

  const spec = deliverySpec(req, createdBy, null);
  const sent = await em.transactional(async (tx) => {
    const recipients = await findRecipients(tx, spec);
    return recordDelivery(tx, spec, recipients, now, null, spec.email ? servicesOf(deps) : deps.services);
  });
  return { sent, scheduled: null };
}
