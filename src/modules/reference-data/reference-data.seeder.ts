// Demo reference data: conditions, professions, specialties and two assessment forms.
// Fixed ids so the examples of docs/getting-started.md and the other demo seeders can refer to them.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { AssessmentField, AssessmentForm, Condition, Profession, ReferenceDataVersion, Specialty } from './reference-data.entity';
import { DEMO_PROFESSION, DEMO_SPECIALTY, DEMO_ASSESSMENT_UUIDS } from '../../db/demo';

export class ReferenceDataSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const conditions = [
      'Asthma',
      'Type 1 diabetes',
      'Type 2 diabetes',
      'Hypertension',
      'Coeliac disease',
      'Epilepsy',
      'Multiple sclerosis',
      'Rheumatoid arthritis',
    ];
    conditions.forEach((conditionName, i) => em.create(Condition, { conditionId: 301 + i, conditionName }));
    em.create(ReferenceDataVersion, { name: 'conditions', version: 1 });

    const professions: [number, string][] = [
      [DEMO_PROFESSION.doctor, 'Doctor'],
      [DEMO_PROFESSION.nurse, 'Nurse'],
      [DEMO_PROFESSION.pharmacist, 'Pharmacist'],
      [DEMO_PROFESSION.physiotherapist, 'Physiotherapist'],
      [DEMO_PROFESSION.psychologist, 'Psychologist'],
    ];
    for (const [professionId, professionName] of professions) em.create(Profession, { professionId, professionName });
    const specialties: [number, string, number][] = [
      [DEMO_SPECIALTY.cardiology, 'Cardiology', DEMO_PROFESSION.doctor],
      [DEMO_SPECIALTY.oncology, 'Oncology', DEMO_PROFESSION.doctor],
      [DEMO_SPECIALTY.paediatrics, 'Paediatrics', DEMO_PROFESSION.doctor],
      [DEMO_SPECIALTY.intensiveCare, 'Intensive care', DEMO_PROFESSION.nurse],
      [DEMO_SPECIALTY.clinicalPharmacy, 'Clinical pharmacy', DEMO_PROFESSION.pharmacist],
      [DEMO_SPECIALTY.sports, 'Sports physiotherapy', DEMO_PROFESSION.physiotherapist],
    ];
    for (const [specialtyId, specialtyName, professionId] of specialties)
      em.create(Specialty, { specialtyId, specialtyName, professionId });

    const wellbeing = em.create(AssessmentForm, {
      assessmentId: 401,
      assessmentUuid: DEMO_ASSESSMENT_UUIDS[0],
      assessmentName: 'Wellbeing check-in',
    });
    const fields1: [string, string, boolean, string[]][] = [
      ['How would you rate your wellbeing this week?', 'single_choice', true, ['Poor', 'Fair', 'Good', 'Very good']],
      ['Hours of sleep per night', 'number', true, []],
      ['Anything you would like to tell us?', 'textarea', false, []],
    ];
    fields1.forEach(([label, fieldType, required, options], i) =>
      em.create(AssessmentField, { fieldId: 4101 + i, form: wellbeing, label, fieldType, required, options, fieldOrder: i + 1 }),
    );
    const intake = em.create(AssessmentForm, {
      assessmentId: 402,
      assessmentUuid: DEMO_ASSESSMENT_UUIDS[1],
      assessmentName: 'Programme intake',
    });
    const fields2: [string, string, boolean, string[]][] = [
      ['Date of diagnosis', 'date', false, []],
      ['Which topics interest you?', 'multi_choice', true, ['Nutrition', 'Exercise', 'Medication', 'Peer support']],
      ['I agree to be contacted by a nurse', 'boolean', true, []],
      ['Your main goal for the programme', 'text', false, []],
    ];
    fields2.forEach(([label, fieldType, required, options], i) =>
      em.create(AssessmentField, { fieldId: 4201 + i, form: intake, label, fieldType, required, options, fieldOrder: i + 1 }),
    );
  }
}
