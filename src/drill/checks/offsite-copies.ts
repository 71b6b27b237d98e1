// `offsite-copy:read-back` (deep): each encrypted offsite copy Sanad uploaded and still keeps is in
// the rclone folder with the size that was uploaded, read back from the remote's own listing (the
// contents are not downloaded). Missing or another size is FAIL; a folder that cannot be listed
// (remote down, rclone missing) is UNVERIFIED.
import { say } from '../../contract/said/index.js';
import { errorParam, type Said } from '../../contract/said.js';
import type { DrillDeps } from '../drill-deps.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { listOffsiteCopies, normalizeCopyDestination } from '../../repository/offsite-copies.js';
import { rcloneLsJson, type RcloneEntry } from '../../repository/rclone.js';

export async function checkOffsiteCopies(deps: DrillDeps, destination: string, signal?: AbortSignal): Promise<CheckOutcome> {
  const rows = listOffsiteCopies(deps.db, normalizeCopyDestination(destination));
  if (rows.length === 0) return unverified(say('drill.copies.none', { destination }));
  let listing: RcloneEntry[];
  try {
    const config = deps.settings.offsite_copy_rclone_config;
    listing = await rcloneLsJson(destination, { ...(config ? { config } : {}), ...(signal ? { signal } : {}), logger: deps.logger });
  } catch (error) {
    return unverified(say('drill.copies.unlisted', { destination, error: errorParam(error) }));
  }
  const sizes = new Map(listing.filter((e) => !e.IsDir && e.Path === e.Name).map((e) => [e.Name, e.Size]));
  const problems: Said[] = [];
  for (const row of rows) {
    const size = sizes.get(row.name);
    if (size === undefined) problems.push(say('drill.copies.missing', { name: row.name }));
    else if (size !== row.size) problems.push(say('drill.copies.size', { name: row.name, size, expected: row.size }));
  }
  if (problems.length > 0) return fail(say('drill.copies.problems', { destination, problems }));
  // rows is not empty (the first line of this function), newest first.
  const newest = rows[0] ?? { name: '', size: 0 };
  return pass(say('drill.copies.ok', { count: rows.length, destination, newest: newest.name, size: newest.size }));
}
