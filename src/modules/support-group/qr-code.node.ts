// SupportGroupQrCode as a Node, keyed by qrCodeId: node(id:) answers the codes that
// Query.supportGroupQrCode answers (administrators of the code's company and members of its team),
// through the same check (readableQrCodes), in three statements for any number of ids.
import { nodeIntKey, type NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import type { SupportGroupQrCode } from './support-group.types';
import { readableQrCodes } from './support-group.service';
import { qrCodeView } from './support-group.resolver';

export const qrCodeNode: NodeType = {
  key: (qr: SupportGroupQrCode) => String(qr.qrCodeId),
  async load(keys, ctx: Context) {
    const ids = keys.map(nodeIntKey);
    const wanted = ids.filter((id): id is number => id !== null);
    const found = new Map((await readableQrCodes(ctx, wanted)).map((qr, i) => [wanted[i], qr]));
    return ids.map((id) => {
      const qr = id === null ? null : found.get(id);
      return qr ? qrCodeView(qr, ctx) : null;
    });
  },
};
