// The REST download of a support group's QR code: the PNG (the route's document authorised the caller).
import type Koa from 'koa';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { qrCodeImage } from './support-group.service';

export async function sendQrCode(
  ctx: Koa.Context,
  data: { supportGroupQrCode: { qrCodeId: number; qrCodeName: string; imageBytes: number; imageMd5: string } },
  request: Context,
): Promise<void> {
  const qr = data.supportGroupQrCode;
  const content = await qrCodeImage(request.em, qr.qrCodeId);
  if (!content) throw new ServiceError('WSRecordNotFoundException', 'The QR code was not found.', { field: 'qrCodeId' });
  ctx.type = 'image/png';
  ctx.length = qr.imageBytes;
  ctx.attachment(`${qr.qrCodeName}.png`, { type: 'inline' });
  ctx.set('ETag', `"${qr.imageMd5}"`);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.body = content;
}
