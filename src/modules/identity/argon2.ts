// @node-rs/argon2 allocates through its own mimalloc, which keeps a freed block for reuse until
// that thread allocates again: the 19 MiB of each hash stayed resident after the hash (57 MB
// after a few sign-ins at two hashes at once, measured). A purge delay of 0 gives them back as
// soon as the hash ends; mimalloc reads the variable when the library loads, so it is set before
// the library is required. An operator's own value wins. Cost: the pages are faulted in again
// for each hash (about 2 ms of a 10 ms verify on this machine), on a rate-limited path.
process.env.MIMALLOC_PURGE_DELAY ??= '0';

export { hash, verify } from '@node-rs/argon2';
