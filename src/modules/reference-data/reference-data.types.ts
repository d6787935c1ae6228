// Reference views computed from packages and ICU rather than stored rows.
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'An ISO 3166-1 country.', simpleResolvers: true })
export class CountryView {
  @Field({ description: 'ISO 3166-1 alpha-2 code, upper case.' }) countryCode!: string;

  @Field({ description: 'English short name of the country.' }) countryName!: string;
}

@ObjectType('State', { description: 'An ISO 3166-2 subdivision (state, province, region) of a country.', simpleResolvers: true })
export class StateView {
  @Field({ description: 'Subdivision code without the country prefix (e.g. NSW for AU-NSW).' }) stateCode!: string;

  @Field({ description: 'English name of the subdivision.' }) stateName!: string;

  @Field({ description: 'ISO 3166-1 alpha-2 code of the country.' }) countryCode!: string;
}

@ObjectType('Timezone', { description: 'An IANA time zone with its standard and daylight-saving offsets.', simpleResolvers: true })
export class TimezoneView {
  @Field({ description: 'IANA identifier, e.g. Australia/Sydney.' }) timezoneId!: string;

  @Field({ description: 'English display name in standard time.' }) timezoneName!: string;

  @Field({ description: 'English display name in daylight-saving time (the standard name where there is none).' }) timezoneDSTName!: string;

  @Field(() => Int, { description: 'Hours added while daylight saving is in force; 0 if none (whole hours, truncated).' })
  dstOffsetHours!: number;

  @Field(() => Int, { description: 'Standard UTC offset in whole hours, truncated toward zero.' }) offsetHours!: number;

  @Field(() => Int, { description: 'Standard UTC offset in minutes, for zones off the whole hour.' }) offsetMinutes!: number;

  @Field(() => Int, { description: 'Minutes added while daylight saving is in force; 0 if none.' }) dstOffsetMinutes!: number;
}

@ObjectType({ description: 'Data version of a reference list, for client caches.', simpleResolvers: true })
export class DataVersion {
  @Field(() => Int, { description: 'Version number; it grows whenever the list changes.' }) version!: number;
}
