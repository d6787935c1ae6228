// Demo library of docs/api/library.md ("Demo"): library 3001 of Northwind Health (1001), published by Olivia and
// Cara, with entry 4001 "Welcome pack" (a one-page PDF and its tile), and the folders,
// filters and categories docs/api/library.md's examples use.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { User } from '../user';
import { StoredBlob } from '../storage';
import { storeBuffer, type BlobInfo } from '../storage';
import { SmartEntry } from './library.entity';
import { SmartFile } from './entry-content.entity';
import { SmartEntryCategory, SmartEntryFilter, SmartEntryFolder, SmartEntryTag } from './taxonomy.entity';
import { createSmartLibrary, ensureTerms, grantPublisher, nameKey } from './library.service';
import { placeholderTile, TILE_MIME } from './thumbnail';
import { entryValues, everyFlag } from './entry.draft';
import { DEMO_COMPANIES, DEMO_USERS, DEMO_LIBRARY } from '../../db/demo';

/** A valid one-page PDF saying `text` (offsets of the cross-reference table computed). */
export function onePagePdf(text: string): Buffer {
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 24 Tf 72 720 Td (${escaped}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export class LibrarySeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const { smartLibId, welcomePackEntryId } = DEMO_LIBRARY;
    const library = await createSmartLibrary(em, {
      smartLibId,
      companyId: DEMO_COMPANIES.northwind,
      smartLibName: 'Northwind Health library',
    });
    await grantPublisher(em, smartLibId, DEMO_USERS.olivia);
    await grantPublisher(em, smartLibId, DEMO_USERS.cara);
    const named = <T extends { nameKey: string }>(terms: T[], name: string) => terms.find((t) => t.nameKey === nameKey(name))!;
    const gettingStarted = named(await ensureTerms(em, 'folder', smartLibId, ['Getting started', 'Policies']), 'Getting started');
    const newStaff = named(await ensureTerms(em, 'filter', smartLibId, ['New staff', 'Clinicians']), 'New staff');
    const guides = named(await ensureTerms(em, 'category', smartLibId, ['Guides', 'Forms']), 'Guides');
    const tagList = await ensureTerms(em, 'tag', smartLibId, ['onboarding', 'welcome']);
    const tags = [named(tagList, 'onboarding'), named(tagList, 'welcome')];

    const created = new Date('2026-01-05T09:00:00Z');
    // As createSmartEntry would store this input, readers may download it in every form (every flag Y).
    const values = entryValues({
      smartEntryType: 'PDF',
      smartEntryName: 'Welcome pack',
      smartEntryDesc: 'Everything a new member of Northwind Health needs in the first week.',
      smartEntryAuthors: 'Cara Lopez',
      ...everyFlag('Y'),
    });
    const entry = em.create(SmartEntry, {
      ...values,
      smartEntryId: welcomePackEntryId,
      library,
      nameKey: nameKey(values.smartEntryName),
      notifyUserOfExternalUrl: 'N',
      smartEntryCreated: created,
      smartEntryModified: created,
      createdBy: em.getReference(User, DEMO_USERS.cara),
    });
    const file = (type: 'OUF' | 'THMB', name: string, mimeType: string, blob: BlobInfo) =>
      em.create(SmartFile, {
        entry,
        library,
        smartFileType: type,
        smartFileName: name,
        smartFileBytes: blob.bytes,
        smartFileMd5: blob.md5,
        mimeType,
        blob: em.getReference(StoredBlob, blob.sha256),
        dedupeMd5: type === 'OUF' ? blob.md5 : null,
        smartFileCreated: created,
        smartFileModified: created,
      });
    file('OUF', 'welcome-pack.pdf', 'application/pdf', await storeBuffer(em, onePagePdf('Welcome to Northwind Health')));
    file('THMB', 'Welcome pack-tile.jpg', TILE_MIME, await storeBuffer(em, placeholderTile('PDF').image));
    tags.forEach((tag, position) => em.create(SmartEntryTag, { entry, tag, position }));
    em.create(SmartEntryFolder, { entry, folder: gettingStarted, position: 0 });
    em.create(SmartEntryFilter, { entry, filter: newStaff, position: 0 });
    em.create(SmartEntryCategory, { entry, category: guides, position: 0 });
    await em.flush();
  }
}
