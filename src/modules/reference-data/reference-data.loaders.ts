import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { assessmentFieldRows, type AssessmentFieldRow } from './reference-data.queries';

export function createReferenceDataLoaders(em: EntityManager) {
  return {
    /** Fields of assessment forms, by assessment id, in form order: plain rows, one statement per batch. */
    assessmentFields: new DataLoader<number, AssessmentFieldRow[]>(async (ids) => {
      const rows = await assessmentFieldRows.run(em, { assessmentIds: [...ids] });
      const byForm = new Map<number, AssessmentFieldRow[]>(ids.map((id) => [id, []]));
      for (const row of rows) byForm.get(row.form)!.push(row);
      return ids.map((id) => byForm.get(id)!);
    }),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createReferenceDataLoaders> {}
}
