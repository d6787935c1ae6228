import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { AssessmentField } from './reference-data.entity';

export function createReferenceDataLoaders(em: EntityManager) {
  return {
    /** Fields of assessment forms, by assessment id, in form order. */
    assessmentFields: new DataLoader<number, AssessmentField[]>(async (ids) => {
      const rows = await em.find(
        AssessmentField,
        { form: { assessmentId: { $in: [...ids] } } },
        { orderBy: { fieldOrder: 'asc', fieldId: 'asc' } },
      );
      const byForm = new Map<number, AssessmentField[]>(ids.map((id) => [id, []]));
      for (const row of rows) byForm.get(row.form.assessmentId)!.push(row);
      return ids.map((id) => byForm.get(id)!);
    }),
  };
}
