// Key names in the shared Redis, apart from the connection so that modules naming keys do not load
// the Redis client (it is loaded only when REDIS_URL is set).

/** Every key this service writes starts with this; bump the version when a value's format changes. */
export const KEY_PREFIX = 'psxmd:v1:';
