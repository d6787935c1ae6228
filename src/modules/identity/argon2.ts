// @node-rs/argon2, loaded after its allocator's settings (nativeAllocatorDefaults in
// src/config.ts): a hash's memory (7 MiB, passwords.ts) is given back when the hash ends instead
// of staying resident. Cost: the pages are faulted in again for each hash, on a rate-limited
// path. Every import of the library goes through this file.
import { nativeAllocatorDefaults } from '../../config';

nativeAllocatorDefaults();

export { hash, verify } from '@node-rs/argon2';
