// Configuration comes from the environment only (twelve-factor); every knob is documented in the
// README. Invalid values fail fast at start-up with a message naming the variable.

export interface Config {
  port: number;
  host: string;
  /** The portal's origin. Tests and the demo point it at the fake portal. */
  exchangeBaseUrl: string;
  /** Requests per minute per client IP across all endpoints; 0 disables the limit. */
  rateLimitPerMinute: number;
  /** When true, the client IP is taken from X-Forwarded-For (only behind a trusted reverse proxy). */
  trustProxy: boolean;
  logLevel: string;
  /** Repeats of fresh cached answers get prepared bytes before the handler (src/http/app.ts). */
  hitReplay: boolean;
  /** Parse synthetic pages once listening (Service.warmUp), so the first real ones run optimised code. */
  parserWarmUp: boolean;
  exchange: {
    connectTimeoutMs: number;
    requestTimeoutMs: number;
    maxRetries: number;
    /** Base of the jittered exponential backoff between retries. */
    retryBaseMs: number;
    /** Proactive token refresh age; the portal rotates its token about every 5 minutes. */
    tokenMaxAgeMs: number;
    /** After a portal 429, no fetch for this long. */
    cooldownAfter429Ms: number;
  };
  cache: {
    dir: string;
    memoryMb: number;
    intradayTtlSec: number;
    historyTtlSec: number;
    reportsTtlSec: number;
    followMarketClock: boolean;
    /** How long past freshness a copy is served at once while one background refresh runs. */
    staleWhileRevalidateSec: number;
    /** How long past freshness a copy is kept in Redis for stale serving (history: forever). */
    staleMaxSec: number;
    /** Deep-freeze datasets as they are cached, so a mutation throws (on unless NODE_ENV=production). */
    freezeDatasets: boolean;
  };
  /** The shared tier and counters for several replicas; absent = embedded store and local limits. */
  redisUrl: string | undefined;
  /** A Redis call slower than this counts as Redis being away (local tiers take over). */
  redisTimeoutMs: number;
  /** How long a starting replica waits for Redis before it listens without it. */
  redisStartWaitMs: number;
  budget: {
    /** Portal fetches a minute one client IP may cause (0 = no limit). */
    fetchesPerIpPerMinute: number;
    /** Portal fetches a minute in total (0 = no limit). */
    fetchesGlobalPerMinute: number;
    /** Share of the global budget kept for quotes, the market watch and company pages (0 = none). */
    interactiveReserveShare: number;
  };
  /** Live quotes (GET /stream/quotes, src/stream/). */
  stream: {
    /** Market-watch poll interval while the market is open. */
    pollSeconds: number;
    /** Concurrent streams per client address. */
    maxPerIp: number;
    /** Comment sent on every stream this often, so idle proxies keep it open. */
    heartbeatSeconds: number;
  };
  proxy: {
    passthrough: boolean;
    fetchesPerIpPerMinute: number;
    maxInFlight: number;
  };
  /** The archive (src/archive) and its archiver (src/archiver): docs/archive.md. */
  archive: {
    /** Run the archiver (backfill and closing records); the archive is read either way. */
    enabled: boolean;
    /** PostgreSQL for the archive (shared by replicas); absent = SQLite in CACHE_DIR. */
    databaseUrl: string | undefined;
    /** Share of the global portal budget the archiver may use (0 < share ≤ 1). */
    budgetShare: number;
    /** Fetches a minute when the global budget is unlimited (EXCHANGE_FETCH_LIMIT_GLOBAL=0). */
    fetchesPerMinuteUnlimited: number;
    progressEvery: number;
    backoffMs: number;
    maxBackoffMs: number;
    idleMs: number;
    /** The oldest daily closing file the archiver keeps (ARCHIVE_FILES_FROM). */
    filesFrom: string;
  };
  /** POST /mcp's DNS-rebinding protection (src/mcp/access.ts). */
  mcp: {
    /** Host names besides loopback and HOST that requests may name; `*` turns the check off. */
    allowedHosts: string[];
    /** Browser origins besides the allowed hosts' own; `*` allows any. */
    allowedOrigins: string[];
    /** MCP_TOOLS: every tool (`all`), or the core set for hosts that take few (`core`). */
    tools: 'all' | 'core';
  };
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function mcpToolSet(env: Env): 'all' | 'core' {
  const raw = (env.MCP_TOOLS ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'all') return 'all';
  if (raw === 'core') return 'core';
  throw new ConfigError(`MCP_TOOLS must be all or core, got "${env.MCP_TOOLS}"`);
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return parsed.origin;
}

function fraction(env: Env, name: string, fallback: number, zero = false): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (zero ? value < 0 : value <= 0) || value > 1) {
    throw new ConfigError(
      `${name} must be a number ${zero ? 'from 0' : 'above 0'} and at most 1, got "${raw}"`,
    );
  }
  return value;
}

function isoDay(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) {
    throw new ConfigError(`${name} must be a date as YYYY-MM-DD, got "${raw}"`);
  }
  return raw;
}

function databaseUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  return {
    port: int(env, 'PORT', 8000),
    host: env.HOST?.trim() || '0.0.0.0',
    exchangeBaseUrl: url(env, 'EXCHANGE_BASE_URL', 'https://dps.psx.com.pk'),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 60),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    hitReplay: bool(env, 'HIT_REPLAY', true),
    parserWarmUp: bool(env, 'PARSER_WARM_UP', true),
    exchange: {
      connectTimeoutMs: int(env, 'EXCHANGE_CONNECT_TIMEOUT_MS', 5_000, 1),
      requestTimeoutMs: int(env, 'EXCHANGE_TIMEOUT_MS', 20_000, 1),
      maxRetries: int(env, 'EXCHANGE_MAX_RETRIES', 2),
      retryBaseMs: int(env, 'EXCHANGE_RETRY_BASE_MS', 250),
      tokenMaxAgeMs: int(env, 'EXCHANGE_TOKEN_MAX_AGE_MS', 240_000, 1),
      cooldownAfter429Ms: int(env, 'EXCHANGE_COOLDOWN_AFTER_429_MS', 60_000),
    },
    cache: {
      dir: env.CACHE_DIR?.trim() || './data',
      memoryMb: int(env, 'CACHE_MEMORY_MB', 128, 1),
      intradayTtlSec: int(env, 'CACHE_INTRADAY_TTL', 900, 1),
      historyTtlSec: int(env, 'CACHE_HISTORY_TTL', 1800, 1),
      reportsTtlSec: int(env, 'CACHE_REPORTS_TTL', 21_600, 1),
      followMarketClock: bool(env, 'CACHE_FOLLOW_MARKET_CLOCK', true),
      staleWhileRevalidateSec: int(env, 'CACHE_SWR', 300),
      staleMaxSec: int(env, 'CACHE_STALE_MAX', 7 * 24 * 3600, 1),
      freezeDatasets: bool(env, 'CACHE_FREEZE_DATASETS', env.NODE_ENV !== 'production'),
    },
    redisUrl: env.REDIS_URL?.trim() || undefined,
    redisTimeoutMs: int(env, 'REDIS_TIMEOUT_MS', 50, 1),
    redisStartWaitMs: int(env, 'REDIS_START_WAIT_MS', 3_000),
    budget: {
      fetchesPerIpPerMinute: int(env, 'EXCHANGE_FETCH_LIMIT_PER_IP', 20),
      fetchesGlobalPerMinute: int(env, 'EXCHANGE_FETCH_LIMIT_GLOBAL', 60),
      interactiveReserveShare: fraction(env, 'EXCHANGE_FETCH_INTERACTIVE_RESERVE', 0.25, true),
    },
    stream: {
      pollSeconds: int(env, 'STREAM_POLL_SECONDS', 20, 1),
      maxPerIp: int(env, 'STREAM_MAX_PER_IP', 5, 1),
      heartbeatSeconds: int(env, 'STREAM_HEARTBEAT_SECONDS', 15, 1),
    },
    proxy: {
      passthrough: bool(env, 'PROXY_PASSTHROUGH', false),
      fetchesPerIpPerMinute: int(env, 'PROXY_FETCH_LIMIT_PER_IP', 10),
      maxInFlight: int(env, 'PROXY_MAX_IN_FLIGHT', 4, 1),
    },
    mcp: {
      allowedHosts: list(env, 'MCP_ALLOWED_HOSTS'),
      allowedOrigins: list(env, 'MCP_ALLOWED_ORIGINS'),
      tools: mcpToolSet(env),
    },
    archive: {
      enabled: bool(env, 'ARCHIVE', false),
      databaseUrl: databaseUrl(env),
      budgetShare: fraction(env, 'ARCHIVE_BUDGET_SHARE', 0.5),
      fetchesPerMinuteUnlimited: int(env, 'ARCHIVE_FETCHES_PER_MINUTE', 30, 1),
      progressEvery: int(env, 'ARCHIVE_PROGRESS_EVERY', 50, 1),
      backoffMs: int(env, 'ARCHIVE_BACKOFF_MS', 30_000, 1),
      maxBackoffMs: int(env, 'ARCHIVE_MAX_BACKOFF_MS', 600_000, 1),
      idleMs: int(env, 'ARCHIVE_IDLE_MS', 300_000, 1),
      filesFrom: isoDay(env, 'ARCHIVE_FILES_FROM', '2013-11-04'),
    },
  };
}
