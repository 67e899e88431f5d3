/** The key ring as `engram/http` exports it: core's `ApiKeys` on the system clock unless told otherwise. */
import { ApiKeys as KeyRing, type ApiKeysOptions } from '../../core/api-keys.js';
import { systemClock } from '../../system-ports.js';

/**
 * Creates, lists, revokes and verifies tenant API keys, one store row each (revoked keys stay as rows).
 *
 * @example
 * ```ts
 * const keys = new ApiKeys(engram.store);
 * const { key } = await keys.create({ tenant: 'acme' });
 * const principal = await keys.verify(key); // { keyId, tenant: 'acme' }
 * ```
 */
export class ApiKeys extends KeyRing {
  constructor(store: ConstructorParameters<typeof KeyRing>[0], options: Partial<ApiKeysOptions> = {}) {
    super(store, { ...options, clock: options.clock ?? systemClock });
  }
}
