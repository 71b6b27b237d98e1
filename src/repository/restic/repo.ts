// What Sanad needs to open one restic repository. Plain data: the repositories module builds it
// from settings and the vault; the command files turn it into an invocation (run.ts).
export interface ResticRepo {
  /** A name for people and logs (`local`, `r2-offsite`); never the URL, which may carry credentials. */
  name: string;
  /** The `-r` value: a path, `rest:http://…`, `s3:https://…`, `rclone:remote:path`. */
  url: string;
  password: string;
  /** Backend credentials (AWS_ACCESS_KEY_ID, …): passed in the child's environment, never argv. */
  env?: Record<string, string>;
  /** A PEM file restic trusts for TLS (self-signed S3 or REST servers). */
  cacert?: string;
  /** Path of the rclone.conf for `rclone:` repositories. */
  rcloneConfig?: string;
}
