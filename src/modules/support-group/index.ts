// The support-group module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Support groups: a team with its library, directory, product assets and QR code, created in one multipart request.
import { defineModule } from '../../core/module';
import { Product, ProductAsset, ProductAssetVersion, QrCode, TeamImage } from './support-group.entity';
import { SupportGroupResolver } from './support-group.resolver';
import { supportGroupRoutes } from './support-group.routes';
import { qrCodeNode } from './qr-code.node';

export const supportGroup = defineModule({
  name: 'support-group',
  entities: [Product, ProductAsset, ProductAssetVersion, QrCode, TeamImage],
  resolvers: [SupportGroupResolver],
  nodes: { SupportGroupQrCode: qrCodeNode },
  tag: 'Company administration',
  routes: supportGroupRoutes,
  blobReferences: [
    { table: 'product_asset', column: 'image_sha256' },
    { table: 'product_asset_version', column: 'file_sha256' },
    { table: 'qr_code', column: 'image_sha256' },
    { table: 'team_image', column: 'image_sha256' },
  ],
});
