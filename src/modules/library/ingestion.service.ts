// updateSmartEntryAIIngestionFailure: the ingestion process reports that it failed on an entry.
// The count is incremented by the database in the same statement that stores the error, so
// concurrent reports each count once.
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { ServiceError } from '../../core/errors';
import { LIMITS } from './library.limits';
import { charLength } from '../../core/text';

export interface IngestionFailure {
  smartEntryId: number;
  smartlibId: number;
  cId: number;
  aiIngestionError: string;
}

const invalid = (field: string, message: string) => new ServiceError('InvalidParameterException', message, { field });

export function checkIngestionFailure(f: IngestionFailure): void {
  for (const field of ['smartEntryId', 'smartlibId', 'cId'] as const) {
    if (!Number.isInteger(f[field]) || f[field] < 1) throw invalid(field, `${field} must be a positive integer.`);
  }
  if (!f.aiIngestionError.trim()) throw invalid('aiIngestionError', 'aiIngestionError is required.');
  if (charLength(f.aiIngestionError) > LIMITS.aiIngestionError) {
    throw invalid('aiIngestionError', `aiIngestionError must be at most ${LIMITS.aiIngestionError} characters.`);
  }
}

/** Stores the error and adds one to the count; SmartEntryNotFoundException unless the entry is in that library of that company. */
export async function recordIngestionFailure(em: EntityManager, f: IngestionFailure): Promise<void> {
  const result = await (em as unknown as SqlEntityManager).execute(
    `update smart_entry e set ai_ingestion_failures = e.ai_ingestion_failures + 1, ai_ingestion_error = ?
     from smart_library l
     where e.smart_entry_id = ? and e.smart_lib_id = ? and l.smart_lib_id = e.smart_lib_id and l.company_id = ?`,
    [f.aiIngestionError, f.smartEntryId, f.smartlibId, f.cId],
    'run',
  );
  if (!(result as { affectedRows?: number }).affectedRows) {
    throw new ServiceError('SmartEntryNotFoundException', 'No smart entry with this id in that library and company.', {
      field: 'smartEntryId',
    });
  }
}
