import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { CreateSupportGroupInput } from './support-group.inputs';
import { SupportGroup, SupportGroupQrCode } from './support-group.types';
import type { QrCode } from './support-group.entity';
import { createSupportGroup, readableQrCode } from './support-group.service';

export const qrCodeDownloadPath = (qrCodeId: number) => `/rest/company/support-group/qrcodes/${qrCodeId}/image`;

/** A QR code as Query.supportGroupQrCode and node(id:) answer it. */
export function qrCodeView(qr: QrCode, ctx: Context): SupportGroupQrCode {
  return {
    qrCodeId: qr.qrCodeId,
    qrCodeName: qr.qrCodeName,
    companyId: qr.company.companyId,
    teamId: qr.team.teamId,
    productId: qr.product?.productId ?? null,
    joinUrl: qr.joinUrl,
    imageBytes: qr.imageBytes,
    imageMd5: qr.imageMd5,
    downloadUrl: `${ctx.config.publicBaseUrl}${qrCodeDownloadPath(qr.qrCodeId)}`,
    qrCodeCreated: qr.createdAt,
  };
}

@Resolver()
@ServiceBoundary('WSUserServiceException')
export class SupportGroupResolver {
  @Mutation(() => SupportGroup, {
    description:
      'Creates a support group: product, team (admins flagged, with the push notification and library publisher roles), QR code, smart library, ' +
      'smart directory and assets, in one transaction (createSupportGroup). Needs x-service-authtoken of an administrator of companyId and ' +
      'x-service-company-api-key of that company. Multipart request when files are sent.',
  })
  createSupportGroup(
    @Ctx() ctx: Context,
    // Uploads sit inside the input, so type-graphql hands them over unresolved and the service takes them in arrival order.
    @Arg('input', () => CreateSupportGroupInput, { description: 'The support group form.' }) input: CreateSupportGroupInput,
  ): Promise<SupportGroup> {
    return createSupportGroup(ctx, input);
  }

  @Query(() => SupportGroupQrCode, { description: "A support group's QR code, for administrators of its company and members of its team." })
  async supportGroupQrCode(
    @Ctx() ctx: Context,
    @Arg('qrCodeId', () => Int, { description: 'Id of the QR code.' }) qrCodeId: number,
  ): Promise<SupportGroupQrCode> {
    return qrCodeView(await readableQrCode(ctx, qrCodeId), ctx);
  }
}
