// GraphQL views of a provisioned support group and of its QR code.
import { Field, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';

// Each field is the ProductAsset property of its name, copied by name (assetAnswer, support-group.service.ts).
@ObjectType({ description: 'An asset createSupportGroup created.', simpleResolvers: true })
export class SupportGroupAsset {
  @Field(() => Int, { description: 'Id of the asset.' }) assetId!: number;

  @Field({ description: 'Name of the asset.' }) assetName!: string;

  @Field({ description: 'html, smartlib or smartdir.' }) assetType!: string;
}

@ObjectType({ description: 'The support group result: what createSupportGroup created.', simpleResolvers: true })
export class SupportGroup {
  @Field(() => Int, { description: 'The company.' }) companyId!: number;

  @Field(() => Int, { description: 'Id of the product.' }) productId!: number;

  @Field({ description: 'Name of the product: "<prefix> <supportGroupName>".' }) productName!: string;

  @Field(() => Int, { description: 'Id of the team.' }) teamId!: number;

  @Field({ description: "Name of the team (the product's name)." }) teamName!: string;

  @Field(() => Int, { description: "Id of the team's QR code." }) qrCodeId!: number;

  @Field({ description: 'Name of the QR code: "<product name> QR Code".' }) qrCodeName!: string;

  @Field(() => [String], { description: 'E-mail addresses of the team admins, as stored for the users, in the order given.' })
  teamAdminUserEmails!: string[];

  @Field(() => [SupportGroupAsset], { description: 'The assets created, by number.' }) supportGroupAssetsCreated!: SupportGroupAsset[];

  @Field(() => Int, { description: "Id of the support group's smart library (its team admins publish to it)." }) smartLibId!: number;

  @Field({ description: "Id of the support group's smart directory." }) directoryUUID!: string;
}

@ObjectType({ implements: Node, description: "The QR code of a support group's team.", simpleResolvers: true })
export class SupportGroupQrCode {
  @Field(() => Int, { description: 'Id of the QR code.' }) qrCodeId!: number;

  @Field({ description: 'Name of the QR code.' }) qrCodeName!: string;

  @Field(() => Int, { description: 'The company.' }) companyId!: number;

  @Field(() => Int, { description: 'The team the QR code lets people join.' }) teamId!: number;

  @Field(() => Int, { nullable: true, description: "The support group's product." }) productId?: number | null;

  @Field({ description: 'The URL the QR code encodes: PUBLIC_BASE_URL/join/team/<teamId>?code=<joinCode>.' }) joinUrl!: string;

  @Field(() => Int, { description: 'Size of the PNG in bytes.' }) imageBytes!: number;

  @Field({ description: 'MD5 of the PNG, hex.' }) imageMd5!: string;

  @Field({ description: 'Where the PNG downloads (same credentials).' }) downloadUrl!: string;

  @Field(() => Date, { description: 'When the QR code was created.' }) qrCodeCreated!: Date;
}
