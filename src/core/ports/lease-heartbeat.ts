/**
 * Calls `renew` about every `everyMs` until the returned stop function is called. The composition
 * root provides it (a timer), so core needs none; it keeps a lease (a consolidation cycle's, a
 * reembed's) alive while work runs between checkpoints for longer than the lease.
 */
export type LeaseHeartbeat = (renew: () => Promise<void>, everyMs: number) => () => void;
