// Per-request loaders of the user module: users by id (federation references) and the
// reference rows whose names a profile shows (uTitle, uGenderName, uProfessionName, ...).
import DataLoader from 'dataloader';
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/core';
import { User } from './user.entity';
import { Gender, Title } from './user-reference.entity';
import { Condition, Profession, Specialty } from '../reference-data';

/** One statement per batch: rows by primary key, in key order, null where missing. */
function byKey<T extends object, K extends string | number>(em: EntityManager, entity: EntityName<T>, key: keyof T & string) {
  return new DataLoader<K, T | null>(async (keys) => {
    const rows = await em.find(entity, { [key]: { $in: [...keys] } } as FilterQuery<NoInfer<T>>);
    const found = new Map(rows.map((r) => [(r as Record<string, unknown>)[key] as K, r]));
    return keys.map((k) => found.get(k) ?? null);
  });
}

export function createUserLoaders(em: EntityManager) {
  return {
    userById: byKey<User, number>(em, User, 'uId'),
    titleById: byKey<Title, number>(em, Title, 'titleId'),
    genderByCode: byKey<Gender, string>(em, Gender, 'genderCode'),
    professionById: byKey<Profession, number>(em, Profession, 'professionId'),
    specialtyById: byKey<Specialty, number>(em, Specialty, 'specialtyId'),
    conditionById: byKey<Condition, number>(em, Condition, 'conditionId'),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createUserLoaders> {}
}
