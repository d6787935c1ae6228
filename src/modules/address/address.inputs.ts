import { Field, InputType } from 'type-graphql';

@InputType({ description: 'Address fields of a create or update. Omitted fields keep their value, null erases; type, state and country are response fields a client may echo, and are ignored.' })
export class AddressInput {
  @Field(() => String, { nullable: true, description: 'Id of the address; required on update and equal to the one in the path; ignored on create.' })
  uuid?: string | null;

  @Field(() => String, { nullable: true, description: 'W (Work), P (Personal) or O (Other); required on create.' })
  typeCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Ignored (derived from typeCode).' })
  type?: string | null;

  @Field(() => String, { nullable: true, description: 'Name of the address (at most 255 characters).' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Street (at most 255 characters).' })
  street?: string | null;

  @Field(() => String, { nullable: true, description: 'City (at most 100 characters).' })
  city?: string | null;

  @Field(() => String, { nullable: true, description: 'Suburb (at most 100 characters).' })
  suburb?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-2 subdivision code without the country prefix, any case; must belong to the country.' })
  stateCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Ignored (derived from stateCode).' })
  state?: string | null;

  @Field(() => String, { nullable: true, description: 'Postcode (at most 20 characters).' })
  postcode?: string | null;

  @Field(() => String, { nullable: true, description: 'The same postcode under the spelling of the spec\'s field table; give one or the other.' })
  postCode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, any case.' })
  countryCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Ignored (derived from countryCode).' })
  country?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail address (at most 255 characters).' })
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'Phone (at most 30 characters).' })
  phone?: string | null;

  @Field(() => String, { nullable: true, description: 'Fax (at most 30 characters).' })
  fax?: string | null;

  @Field(() => String, { nullable: true, description: 'Mobile (at most 30 characters).' })
  mobile?: string | null;

  @Field(() => String, { nullable: true, description: 'Department (at most 50 characters).' })
  department?: string | null;

  @Field(() => String, { nullable: true, description: 'Division (at most 50 characters).' })
  division?: string | null;

  @Field(() => String, { nullable: true, description: 'Job title (at most 50 characters).' })
  jobTitle?: string | null;
}
