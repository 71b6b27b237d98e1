// One readiness check of /health/ready: the appliance adds them (keychain, restic, backups, drills),
// the health route runs them. Its own file, so the context that holds them imports no route.
export interface CheckResult {
  ok: boolean;
  detail: string;
  /** A warning is reported but does not make the service unready. */
  severity?: 'error' | 'warning';
}

export interface HealthCheck {
  name: string;
  run(): Promise<CheckResult> | CheckResult;
}
