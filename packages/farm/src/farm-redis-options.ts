import type { ConnectionOptions as TlsOptions } from "node:tls";

/**
 * Where the farm's Redis is and how to log in. Comes from host configuration only (a config file,
 * the environment, the command line of the host); job payloads never carry it.
 */
export interface FarmRedisOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Password; overrides one in `url`. */
  password?: string;
  /** ACL user name; overrides one in `url`. */
  username?: string;
  /** TLS: `true`, or Node TLS options (CA, certificates, servername). A `rediss:` URL implies `true`. */
  tls?: boolean | TlsOptions;
  /** Key prefix of every farm key, so several farms can share one Redis. Default `dcc`. */
  prefix?: string;
}
