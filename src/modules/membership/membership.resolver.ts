// createMembershipDetails (13), authorised by the company API key alone.
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { MembershipDetails, MembershipDetailsInput } from './membership.types';
import { createMembershipDetails } from './membership.service';

@Resolver()
@ServiceBoundary('WSMembershipServiceException')
export class MembershipResolver {
  @Mutation(() => MembershipDetails, {
    description:
      "Creates, or on a second call for the same user replaces, the user's membership record for the identifier the company API key is linked to (createMembershipDetails). Needs x-service-company-api-key.",
  })
  async createMembershipDetails(
    @Ctx() ctx: Context,
    @Arg('details', () => MembershipDetailsInput, { description: 'The membership details.' }) details: MembershipDetailsInput,
  ): Promise<MembershipDetails> {
    const { key, company } = await ctx.auth.requireCompanyKey();
    return createMembershipDetails(ctx.em, key, company, details);
  }
}
