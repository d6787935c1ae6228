// Demo tenant: the rest of Olivia's profile (CoreSeeder creates the user with her identity,
// names, country, profession, specialty and time zone).
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { User } from './user.entity';
import { DEMO_USERS, DEMO_TITLE } from '../../db/demo';

export class UserProfileSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const olivia = await em.findOneOrFail(User, { uId: DEMO_USERS.olivia });
    em.assign(olivia, {
      titleId: DEMO_TITLE.dr,
      genderCode: 'F',
      primaryMobile: '+61 400 000 201',
      dateOfBirth: '1988-04-12',
      interests: 'Cardiac rehabilitation, trail running',
      enableNotifications: true,
      allowNewsletterEmail: true,
      serviceTsAndCs: 'Y',
      serviceTrackingConsent: 'N',
      cloudStorageConsent: 'Y',
    });
  }
}
