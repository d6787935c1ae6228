// createSupportGroup: one transaction creates the team (its admins flagged, given the push
// notification role and the library publisher role), the team's smart library and smart
// directory, the product, the QR code, the team image and the assets with their first
// version. Uploaded files are taken into storage inside the same transaction (a REST form's
// files, staged while the form was read, are adopted there; the multipart layer deletes what
// was not), so a failure at any point, the last file included, leaves nothing behind.
import { sql, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import type { Config } from '../../config';
import type { Context } from '../../context';
import { ServiceError, invalidParameter } from '../../core/errors';
import { fieldsOf } from '../../graphql/graph-fields';
import { Company, CompanyRole } from '../company';
import { isCompanyAdmin } from '../company';
import { acceptedConnectionUserIds } from '../connection';
import { Team, TeamMember } from '../team';
import { User } from '../user';
import { FieldDefinition } from '../reference-data';
import { StoredBlob } from '../storage';
import { blobStream, storeBuffer } from '../storage';
import { createSmartLibrary, grantPublisher } from '../library';
import type { SmartLibrary } from '../library';
import { createSmartDirectory, DEFAULT_FIELD_IDS } from '../directory';
import type { SmartDirectory } from '../directory';
import { Product, ProductAsset, ProductAssetVersion, QrCode, TeamImage } from './support-group.entity';
import { parseSupportGroupForm, type SupportGroupPlan } from './support-group.form';
import { receiveParts, type FilePart, type StoredPart } from './support-group.files';
import { joinUrl, newJoinCode, qrPng } from './qr-code';
import type { CreateSupportGroupInput } from './support-group.inputs';
import { SupportGroupAsset, type SupportGroup } from './support-group.types';

const sqlEm = (em: EntityManager) => em as unknown as SqlEntityManager;

export async function createSupportGroup(ctx: Context, input: CreateSupportGroupInput): Promise<SupportGroup> {
  const { user } = await ctx.auth.requireUser();
  const { company } = await ctx.auth.requireCompanyKey();
  if (!(await isCompanyAdmin(ctx, user.uId, input.companyId))) {
    throw new ServiceError('WSInsufficientPrivilegesException', 'Only administrators of the company may create its support groups.');
  }
  if (company.companyId !== input.companyId) {
    throw new ServiceError('WSInsufficientPrivilegesException', 'The company API key is not a key of this company.');
  }
  const plan = parseSupportGroupForm(input);
  return ctx.em.transactional((tx) => provision(tx, ctx.config, plan, user.uId));
}

// ---- checks against stored data, in the form's order ----

async function checkNameFree(em: EntityManager, plan: SupportGroupPlan): Promise<void> {
  if (await em.count(Product, { company: plan.companyId, productName: plan.names.product })) {
    throw invalidParameter('supportGroupName', `The company already has a support group named "${plan.names.product}".`);
  }
}

/** The admins' users, in the order given; each must be active and connected (accepted) to the company. */
async function teamAdmins(em: EntityManager, plan: SupportGroupPlan): Promise<User[]> {
  const users = await em.find(User, { [sql.lower('email')]: { $in: plan.adminEmails.map((e) => e.toLowerCase()) } });
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  const connected = await acceptedConnectionUserIds(
    em,
    plan.companyId,
    users.filter((u) => u.active).map((u) => u.uId),
  );
  return plan.adminEmails.map((email) => {
    const user = byEmail.get(email.toLowerCase());
    if (!user || !connected.has(user.uId)) {
      throw invalidParameter('teamAdminUserEmails', `${email} is not a user with an accepted connection to the company.`);
    }
    return user;
  });
}

async function checkFieldIds(em: EntityManager, plan: SupportGroupPlan): Promise<void> {
  const wanted = [...new Set([...DEFAULT_FIELD_IDS, ...plan.fieldIds])];
  const known = new Set((await em.find(FieldDefinition, { fieldId: { $in: wanted } }, { fields: ['fieldId'] })).map((f) => f.fieldId));
  const unknown = plan.fieldIds.filter((id) => !known.has(id));
  if (unknown.length) throw invalidParameter('directoryFieldIds', `No field definition has the id ${unknown.join(', ')}.`);
}

async function checkInternalIdsFree(em: EntityManager, plan: SupportGroupPlan): Promise<void> {
  const ids = plan.assets.flatMap((a) => (a.internalId === null ? [] : [a.internalId]));
  if (!ids.length) return;
  const taken = new Set(
    (await em.find(ProductAsset, { company: plan.companyId, assetInternalId: { $in: ids } }, { fields: ['assetInternalId'] })).map(
      (a) => a.assetInternalId,
    ),
  );
  const clash = plan.assets.find((a) => a.internalId !== null && taken.has(a.internalId));
  if (clash)
    throw invalidParameter(
      `assetInternalId${clash.index}`,
      `assetInternalId${clash.index} is already used by another asset of the company.`,
    );
}

// ---- creation ----

function fileParts(plan: SupportGroupPlan): FilePart[] {
  const parts: FilePart[] = [{ field: 'teamImageFile', kind: 'image', upload: plan.teamImageFile }];
  for (const a of plan.assets) {
    parts.push({ field: `assetImageFile${a.index}`, kind: 'image', upload: a.imageFile });
    parts.push({ field: `assetVersionFile${a.index}`, kind: 'version', upload: a.versionFile, html: a.type === 'html' });
  }
  for (const a of plan.fileOnlyAssets) {
    parts.push({ field: `assetImageFile${a.index}`, kind: 'image', upload: a.imageFile, nameField: `assetName${a.index}` });
    parts.push({ field: `assetVersionFile${a.index}`, kind: 'version', upload: a.versionFile, nameField: `assetName${a.index}` });
  }
  return parts;
}

const blobRef = (em: EntityManager, part: StoredPart | undefined) => (part ? em.getReference(StoredBlob, part.sha256) : null);

async function createQrCode(em: EntityManager, config: Config, product: Product, team: Team, name: string): Promise<QrCode> {
  const joinCode = newJoinCode();
  const url = joinUrl(config.publicBaseUrl, team.teamId, joinCode);
  const blob = await storeBuffer(em, await qrPng(url));
  return em.create(QrCode, {
    company: product.company,
    team,
    product,
    qrCodeName: name,
    joinCode,
    joinUrl: url,
    image: em.getReference(StoredBlob, blob.sha256),
    imageBytes: blob.bytes,
    imageMd5: blob.md5,
  });
}

function createAssets(
  em: EntityManager,
  plan: SupportGroupPlan,
  product: Product,
  library: SmartLibrary,
  directory: SmartDirectory,
  files: Map<string, StoredPart>,
): ProductAsset[] {
  return plan.assets.map((a) => {
    const image = files.get(`assetImageFile${a.index}`);
    const version = files.get(`assetVersionFile${a.index}`);
    const asset = em.create(ProductAsset, {
      product,
      company: product.company,
      assetNumber: a.index,
      assetName: a.name,
      assetType: a.type,
      assetDescription: a.description,
      assetInternalId: a.internalId,
      image: blobRef(em, image),
      imageFileName: image?.fileName ?? null,
      imageMimeType: image?.mimeType ?? null,
      imageBytes: image?.bytes ?? null,
      imageMd5: image?.md5 ?? null,
      smartLibrary: a.type === 'smartlib' ? library : null,
      smartDirectory: a.type === 'smartdir' ? directory : null,
    });
    em.create(ProductAssetVersion, {
      asset,
      versionNumber: 1,
      file: blobRef(em, version),
      fileName: version?.fileName ?? null,
      mimeType: version?.mimeType ?? null,
      bytes: version?.bytes ?? null,
      md5: version?.md5 ?? null,
    });
    return asset;
  });
}

/**
 * The properties of an asset its answer shows: each field of SupportGroupAsset, which is the
 * asset's property of the same name, read once from the type's and the entity's metadata, so a
 * field added to both is answered without being named here. A field the entity lacks is refused.
 */
let answeredProps: readonly (keyof ProductAsset & string)[] | undefined;
function assetAnswerProps(em: EntityManager): readonly (keyof ProductAsset & string)[] {
  if (answeredProps) return answeredProps;
  const meta = em.getMetadata().get(ProductAsset);
  const own = new Set<string>(meta.props.map((p) => p.name));
  const props = fieldsOf(SupportGroupAsset).map((f) => f.property);
  const missing = props.filter((prop) => !own.has(prop));
  if (missing.length) throw new Error(`SupportGroupAsset shows ${missing.join(', ')}, which no property of ProductAsset holds`);
  return (answeredProps = props as (keyof ProductAsset & string)[]);
}

/** A created asset (flushed: its id assigned) as the answer shows it. */
const assetAnswer = (em: EntityManager, asset: ProductAsset): SupportGroupAsset =>
  Object.fromEntries(assetAnswerProps(em).map((prop) => [prop, asset[prop]])) as unknown as SupportGroupAsset;

/** Flushes; a unique constraint a concurrent request won meanwhile becomes the form's error. */
async function flushOr(em: EntityManager, conflict: () => ServiceError): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict();
    throw err;
  }
}

async function provision(em: EntityManager, config: Config, plan: SupportGroupPlan, callerId: number): Promise<SupportGroup> {
  await checkNameFree(em, plan);
  const admins = await teamAdmins(em, plan);
  await checkFieldIds(em, plan);
  await checkInternalIdsFree(em, plan);

  const company = em.getReference(Company, plan.companyId);
  const team = em.create(Team, { company, teamName: plan.names.team });
  for (const admin of admins) em.create(TeamMember, { team, user: admin, isTeamAdmin: true });
  await em.flush();
  await sqlEm(em)
    .createQueryBuilder(CompanyRole)
    .insert(admins.map((admin) => ({ company, user: em.getReference(User, admin.uId), role: 'PUSH_NOTIFICATION' as const })))
    .onConflict(['company', 'user', 'role'])
    .ignore()
    .execute();

  const library = await createSmartLibrary(em, { companyId: plan.companyId, teamId: team.teamId, smartLibName: plan.names.library });
  for (const admin of admins) await grantPublisher(em, library.smartLibId, admin.uId);
  const directory = await createSmartDirectory(em, {
    companyId: plan.companyId,
    teamId: team.teamId,
    name: plan.names.directory,
    type: plan.directoryType,
    order: plan.directoryOrder,
    fieldIds: plan.fieldIds,
    autoPopulateFromProfile: plan.autoPopulateFromProfile,
    consents: plan.consents,
  });

  const product = em.create(Product, {
    company,
    team,
    productName: plan.names.product,
    supportGroupPrefix: plan.supportGroupPrefix,
    supportGroupName: plan.supportGroupName,
    countryCode: plan.countryCode,
    stateCode: plan.stateCode,
    smartLibrary: library,
    smartDirectory: directory,
    createdBy: em.getReference(User, callerId),
  });
  await flushOr(em, () => invalidParameter('supportGroupName', `The company already has a support group named "${plan.names.product}".`));
  const qrCode = await createQrCode(em, config, product, team, plan.names.qrCode);

  const files = await receiveParts(em, config, fileParts(plan));
  const teamImage = files.get('teamImageFile');
  if (teamImage) {
    em.create(TeamImage, {
      team,
      image: blobRef(em, teamImage)!,
      fileName: teamImage.fileName,
      mimeType: teamImage.mimeType,
      bytes: teamImage.bytes,
      md5: teamImage.md5,
    });
  }
  const assets = createAssets(em, plan, product, library, directory, files);
  await flushOr(em, () => {
    const first = plan.assets.find((a) => a.internalId !== null);
    return invalidParameter(
      first ? `assetInternalId${first.index}` : 'assets',
      'An assetInternalId is already used by another asset of the company.',
    );
  });

  return {
    companyId: plan.companyId,
    productId: product.productId,
    productName: product.productName,
    teamId: team.teamId,
    teamName: team.teamName,
    qrCodeId: qrCode.qrCodeId,
    qrCodeName: qrCode.qrCodeName,
    teamAdminUserEmails: admins.map((u) => u.email),
    supportGroupAssetsCreated: assets.map((a) => assetAnswer(em, a)),
    smartLibId: library.smartLibId,
    directoryUUID: directory.directoryUUID,
  };
}

// ---- the QR code's image ----

/**
 * The QR codes, each when the caller administers its company or is a member of its team, else null
 * (in key order): three statements for any number of codes (the codes, the caller's roles through
 * the request's loader, their memberships of the codes' teams). Query.supportGroupQrCode and
 * node(id:) both ask here.
 */
export async function readableQrCodes(ctx: Context, qrCodeIds: readonly number[]): Promise<(QrCode | null)[]> {
  const { user } = await ctx.auth.requireUser();
  const codes = qrCodeIds.length ? await ctx.em.find(QrCode, { qrCodeId: { $in: [...new Set(qrCodeIds)] } }) : [];
  const teams = [...new Set(codes.map((qr) => qr.team.teamId))];
  const [admin, member] = await Promise.all([
    Promise.all(codes.map((qr) => isCompanyAdmin(ctx, user.uId, qr.company.companyId))),
    teams.length ? ctx.em.find(TeamMember, { team: { $in: teams }, user: user.uId }) : [],
  ]);
  const memberOf = new Set(member.map((m) => m.team.teamId));
  const allowed = new Map(codes.map((qr, i) => [qr.qrCodeId, admin[i] || memberOf.has(qr.team.teamId) ? qr : null]));
  return qrCodeIds.map((id) => allowed.get(id) ?? null);
}

/** The QR code, for an administrator of its company or a member of its team; otherwise not found. */
export async function readableQrCode(ctx: Context, qrCodeId: number): Promise<QrCode> {
  const [qrCode] = await readableQrCodes(ctx, [qrCodeId]);
  if (!qrCode) throw new ServiceError('WSRecordNotFoundException', 'The QR code was not found.', { field: 'qrCodeId' });
  return qrCode;
}

/** The PNG's bytes (after readableQrCode authorised the caller). */
export async function qrCodeImage(em: EntityManager, qrCodeId: number): Promise<Readable | null> {
  const qrCode = await em.findOne(QrCode, { qrCodeId }, { fields: ['image'] });
  return qrCode ? blobStream(em, qrCode.image.sha256) : null;
}
