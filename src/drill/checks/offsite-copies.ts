// `offsite-copy:read-back` (deep): each encrypted offsite copy Sanad uploaded and still keeps is in
// the rclone folder with the size that was uploaded, read back from the remote's own listing (the
// contents are not downloaded). Missing or another size is FAIL; a folder that cannot be listed
// (remote down, rclone missing) is UNVERIFIED.
import { listOffsiteCopies, normalizeCopyDestination, rcloneLsJson, type RcloneEntry } from '../../backup/offsite-copy/index.js';
import type { DrillDeps } from '../drill-deps.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';

export async function checkOffsiteCopies(deps: DrillDeps, destination: string, signal?: AbortSignal): Promise<CheckOutcome> {
  const rows = listOffsiteCopies(deps.db, normalizeCopyDestination(destination));
  if (rows.length === 0) return unverified(`No encrypted offsite copy has been uploaded to ${destination} yet.`);
  let listing: RcloneEntry[];
  try {
    const config = deps.settings.offsite_copy_rclone_config;
    listing = await rcloneLsJson(destination, { ...(config ? { config } : {}), ...(signal ? { signal } : {}), logger: deps.logger });
  } catch (error) {
    return unverified(`The offsite copy folder ${destination} could not be listed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const sizes = new Map(listing.filter((e) => !e.IsDir && e.Path === e.Name).map((e) => [e.Name, e.Size]));
  const problems: string[] = [];
  for (const row of rows) {
    const size = sizes.get(row.name);
    if (size === undefined) problems.push(`${row.name} is missing`);
    else if (size !== row.size) problems.push(`${row.name} is ${size} bytes, ${row.size} were uploaded`);
  }
  if (problems.length > 0) return fail(`offsite copies in ${destination}: ${problems.join('; ')}.`);
  const newest = rows[0];
  return pass(`${rows.length} cop${rows.length === 1 ? 'y' : 'ies'} in ${destination} listed with the sizes uploaded${newest ? ` (newest ${newest.name}, ${newest.size} bytes)` : ''}`);
}
