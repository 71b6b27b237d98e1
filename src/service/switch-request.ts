// What a route may ask of the host that runs this service: serve another data dir ("open the
// restored data"). The host (appliance/data-dir-switch.ts) does it; the service only asks.
export interface DataDirSwitch {
  /** The data dir to serve next (absolute; a restore's verified target). */
  dataDir: string;
  /** The one-time login code the next instance must accept. */
  loginCode: string;
}

/** Given to startAppliance by its host; called (once the answer to the request is sent) to switch. */
export type SwitchDataDir = (request: DataDirSwitch) => void;
