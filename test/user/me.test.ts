// Query.me (issue 19): the caller, the same record as userProfile, read from the principal's row
// (no statement beyond what userProfile costs); the root of the graph's edges.
import { OLIVIA, useTestApp } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);

/** Every field of the profile, as the REST route selects them. */
const PROFILE = `uId uTitleId uTitle uGenderCode uGenderName uFirstName uLastName uEmail uCountryCode uCountryName
  uPrimaryMobile uInterests uDietaryRequirements uTreatmentNotes uDateOfBirth uCreationDate uPhoto
  uEnableLocation uEnableNotifications uAllowAllEmails uAllowNewsletterEmail
  uProfessionId uProfessionName uSpecialtyId uSpecialtyName uConditionId uConditionName
  uOtherTitle uOtherProfession uOtherSpecialty uSocialNetworkAId uSocialNetworkBId uSocialNetworkCId uSocialNetworkCUrl
  uTimezoneId uTimezoneName uServiceTsAndCs uServiceTrackingConsent uCloudStorageConsent uSearchProviderConsent uSocialNetworkAConsent`;

describe('Query.me', () => {
  it('when Olivia asks, then her profile', async () => {
    const res = await olivia.gql('{ me { uId uTitle uFirstName uLastName uEmail uCountryName uProfessionName uSpecialtyName } }');
    expect(res.body).toEqual({
      data: {
        me: {
          uId: OLIVIA,
          uTitle: 'Dr',
          uFirstName: 'Olivia',
          uLastName: 'Nguyen',
          uEmail: 'olivia@demo.example',
          uCountryName: 'Australia',
          uProfessionName: 'Doctor',
          uSpecialtyName: 'Cardiology',
        },
      },
    });
  });

  it('when every field is asked for, then me is the record userProfile answers, and the REST profile', async () => {
    const res = await olivia.gql(`{ me { ${PROFILE} } userProfile { ${PROFILE} } }`);
    expect(res.body.errors).toBeUndefined();
    expect(Object.keys(res.body.data.me)).toHaveLength(41);
    expect(res.body.data.me).toEqual(res.body.data.userProfile);
    expect(res.body.data.me).toEqual((await olivia.rest('GET', '/rest/user/profile')).body);
  });

  it('when a new user asks, then their own profile', async () => {
    const u = await t.newUser({ firstName: 'Mia', lastName: 'Ito' });
    expect((await u.gql('{ me { uId uFirstName uLastName uEmail } }')).body).toEqual({
      data: { me: { uId: u.uId, uFirstName: 'Mia', uLastName: 'Ito', uEmail: u.user.email } },
    });
  });

  it('when the token is missing or unknown, then WSInvalidAuthTokenException and no data', async () => {
    for (const who of [t, t.as('not-a-token')]) {
      const res = await who.gql('{ me { uId } }');
      expect(res.body.data).toBeNull();
      expect(res.body.errors!.map((e: any) => [e.path, e.extensions.errorCode])).toEqual([[['me'], 'WSInvalidAuthTokenException']]);
    }
  });

  it('when asked, then me costs what userProfile costs: the principal only', async () => {
    const u = await t.newUser();
    await u.gql('{ me { uId } }'); // caches the token
    const me = await t.countStatements(() => u.gql('{ me { uId uFirstName uEmail } }'));
    const profile = await t.countStatements(() => u.gql('{ userProfile { uId uFirstName uEmail } }'));
    expect(me).toBe(profile);
    expect(me).toBe(1);
  });
});
