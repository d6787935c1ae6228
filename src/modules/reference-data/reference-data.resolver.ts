import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { invalidParameter } from '../../core/errors';
import { parseUuid } from '../../core/uuid';
import { AssessmentField, AssessmentForm, Condition, FieldDefinition, Profession, Specialty } from './reference-data.entity';
import {
  assessmentFormByUuid,
  assessmentFormRows,
  conditionRows,
  fieldDefinitionRows,
  listVersion,
  professionRows,
  professionSpecialtyRows,
  specialtyRows,
  type AssessmentFieldRow,
  type AssessmentFormRow,
} from './reference-data.queries';
import { CountryView, DataVersion, StateView, TimezoneView } from './reference-data.types';
import { listCountries, listStates, listTimezones, normaliseCountryCode } from './iso';

/** An optional country code: upper-cased; not two letters is WSInvalidParameterException. */
export function countryCodeArg(value: string | null | undefined, field = 'countryCode'): string | null {
  const code = normaliseCountryCode(value);
  if (code === 'invalid') throw invalidParameter(field, `${field} must be a two-letter ISO 3166-1 code.`);
  return code;
}

@Resolver()
@ServiceBoundary('WSRefDataServiceException')
export class ReferenceDataResolver {
  @Query(() => [TimezoneView], { description: 'IANA time zones, all of them or those of one country (getAllTimezones).' })
  timezones(
    @Arg('countryCode', () => String, { nullable: true, description: 'ISO 3166-1 alpha-2 code, any case; omitted: every zone.' })
    countryCode?: string | null,
  ): TimezoneView[] {
    return listTimezones(countryCodeArg(countryCode) ?? undefined);
  }

  @Query(() => [Condition], { description: 'Conditions for users and contacts (getConditions).' })
  conditions(@Ctx() ctx: Context): Promise<Condition[]> {
    return conditionRows.run(ctx.em);
  }

  @Query(() => DataVersion, { description: 'Data version of the conditions list.' })
  async conditionsVersion(@Ctx() ctx: Context): Promise<DataVersion> {
    const [version] = await listVersion.run(ctx.em, { name: 'conditions' });
    return { version: version?.version ?? 1 };
  }

  @Query(() => [AssessmentForm], {
    description: 'Assessment forms with their fields; one form when assessmentUuid is given (getAssessmentForms).',
  })
  assessmentForms(
    @Ctx() ctx: Context,
    @Arg('assessmentUuid', () => String, { nullable: true, description: 'UUID of one assessment; unknown gives an empty list.' })
    assessmentUuid?: string | null,
  ): Promise<AssessmentFormRow[]> {
    if (assessmentUuid !== undefined && assessmentUuid !== null) {
      parseUuid(assessmentUuid, 'assessmentUuid');
      return assessmentFormByUuid.run(ctx.em, { uuid: assessmentUuid.toLowerCase() });
    }
    return assessmentFormRows.run(ctx.em);
  }

  @Query(() => [CountryView], { description: 'ISO 3166-1 countries with English names.' })
  countries(): CountryView[] {
    return listCountries();
  }

  @Query(() => [StateView], { description: 'ISO 3166-2 subdivisions of one country.' })
  states(@Arg('countryCode', () => String, { description: 'ISO 3166-1 alpha-2 code, any case.' }) countryCode: string): StateView[] {
    const code = countryCodeArg(countryCode);
    if (!code) throw invalidParameter('countryCode', 'countryCode is required.');
    return listStates(code);
  }

  @Query(() => [FieldDefinition], { description: 'Fields a smart directory can show (directoryFieldIds).' })
  fieldDefinitions(@Ctx() ctx: Context): Promise<FieldDefinition[]> {
    return fieldDefinitionRows.run(ctx.em);
  }

  @Query(() => [Profession], { description: 'Professions users can hold.' })
  professions(@Ctx() ctx: Context): Promise<Profession[]> {
    return professionRows.run(ctx.em);
  }

  @Query(() => [Specialty], { description: 'Specialties, all or those of one profession.' })
  specialties(
    @Ctx() ctx: Context,
    @Arg('professionId', () => Int, { nullable: true, description: 'Only the specialties of this profession.' })
    professionId?: number | null,
  ): Promise<Specialty[]> {
    return professionId == null ? specialtyRows.run(ctx.em) : professionSpecialtyRows.run(ctx.em, { professionId });
  }
}

@Resolver(() => AssessmentForm)
@ServiceBoundary('WSRefDataServiceException')
export class AssessmentFormResolver {
  @FieldResolver(() => [AssessmentField], { description: 'Fields (questions) of the form, in order.' })
  fields(@Root() form: AssessmentFormRow, @Ctx() ctx: Context): Promise<AssessmentFieldRow[]> {
    return ctx.loaders.assessmentFields.load(form.assessmentId);
  }
}
