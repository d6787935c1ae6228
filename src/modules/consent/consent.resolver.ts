import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ConsentDefinition } from '../directory';
import { pairKey } from '../../core/loaders';
import { listEConsents, setEConsent } from './consent.service';
import type { EConsentRow } from '../directory';

/** What an EConsent resolves from: the list's plain row, or the entity (setEConsent, a directory's consents). */
type EConsentSource = ConsentDefinition | EConsentRow;
const isRow = (consent: EConsentSource): consent is EConsentRow => !(consent instanceof ConsentDefinition);

@Resolver(() => ConsentDefinition)
@ServiceBoundary('WSUserServiceException')
export class ConsentResolver {
  @Query(() => [ConsentDefinition], {
    description: 'Consents of a company (type C with companyId) or of an event (type E with eventUUID) (getEConsents).',
  })
  async eConsents(
    @Ctx() ctx: Context,
    @Arg('type', () => String, { nullable: true, description: 'C (company) or E (event).' }) type?: string | null,
    @Arg('companyId', () => Int, { nullable: true, description: 'Company id; required when type is C.' }) companyId?: number | null,
    @Arg('eventUUID', () => String, { nullable: true, description: 'Event UUID; required when type is E.' }) eventUUID?: string | null,
  ): Promise<EConsentRow[]> {
    const { user } = await ctx.auth.requireUser();
    return listEConsents(ctx.em, user.uId, { type, companyId, eventUUID });
  }

  @Mutation(() => ConsentDefinition, { description: "Records the caller's answer to a consent (given or withdrawn)." })
  async setEConsent(
    @Arg('consentUUID', () => String, { description: 'The consent answered.' }) consentUUID: string,
    @Arg('consentGiven', () => Boolean, { description: 'true gives the consent, false withdraws it.' }) consentGiven: boolean,
    @Ctx() ctx: Context,
  ): Promise<ConsentDefinition> {
    const { user } = await ctx.auth.requireUser();
    const consent = await setEConsent(ctx.em, user.uId, consentUUID, consentGiven);
    ctx.loaders.consentGiven.clear(pairKey(user.uId, consent.id));
    return consent;
  }

  @FieldResolver(() => Int, { nullable: true, description: 'Company id, on company consents.' })
  companyId(@Root() consent: EConsentSource): number | null {
    return isRow(consent) ? consent.companyId : (consent.company?.companyId ?? null);
  }

  @FieldResolver(() => String, { nullable: true, description: 'UUID of the smart directory, on directory consents (type DS).' })
  directoryUUID(@Root() consent: EConsentSource): string | null {
    return isRow(consent) ? consent.directoryUUID : (consent.directory?.directoryUUID ?? null);
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'Whether the caller has given this consent; null without a user auth token.',
  })
  async consentGiven(@Root() consent: EConsentSource, @Ctx() ctx: Context): Promise<boolean | null> {
    // The list read the caller's answers with the rows (it requires a user auth token).
    if (isRow(consent)) return consent.consentGiven;
    if (!ctx.credentials.authToken) return null;
    const { user } = await ctx.auth.requireUser();
    return ctx.loaders.consentGiven.load(pairKey(user.uId, consent.id));
  }
}
